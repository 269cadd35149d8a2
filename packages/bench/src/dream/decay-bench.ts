// pnpm bench:decay — figures for read-time importance decay (SPEC D7). For each size: a
// FileMemoryStore data directory of synthetic entries (created and last seen up to a year ago,
// so most are past their grace period), then one importance-decay cycle at the default setting
// (write: false: it reports, writes nothing) and one with write: true (the old behaviour: every
// aging entry rewritten, archived and journaled). Prints wall time, entries written and the run
// folder's files and bytes, then a default-mode browse over the store (effective importance).
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, silentLogger } from '@reverie/core';
import { DreamEngine, ImportanceDecayPass, type ImportanceDecayOptionsInput } from '@reverie/dream';
import { FileDreamStateStore, FileMemoryStore } from '@reverie/file-store';
import { writeMemoryFixture } from '../memory-fixture';
import { fmt, timed } from '../measure';

const sizes = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const now = new Date('2026-11-01T00:00:00Z');

function folderFigures(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

async function cycle(size: number, options: ImportanceDecayOptionsInput): Promise<string> {
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-decay-bench-'));
  try {
    writeMemoryFixture(dataPath, size, now);
    const clock = new ManualClock(now);
    const memory = new FileMemoryStore({ dataPath, clock, logger: silentLogger });
    await memory.list();
    const engine = new DreamEngine({ dataPath, clock, state: new FileDreamStateStore({ dataPath, clock }), logger: silentLogger, memory }, [
      new ImportanceDecayPass(options),
    ]);
    const [report, wallMs] = await timed(() => engine.run({ trigger: 'bench' }));
    const outcome = report.passes[0]!;
    const applied = outcome.status === 'skipped' ? 0 : outcome.applied;
    const run = folderFigures(join(dataPath, '_system', 'dreams', 'runs'));
    const [, browseMs] = await timed(() => memory.search({ maxResults: 20 }));
    await memory.close();
    const notes = outcome.status === 'skipped' ? outcome.reason : outcome.notes[0];
    return `${String(size).padStart(7)}  write: ${String(options.write ?? false).padEnd(5)}  cycle ${fmt(wallMs / 1000, 1).padStart(6)} s  written ${String(applied).padStart(7)}  run folder ${String(run.files).padStart(7)} files ${fmt(run.bytes / 1024 / 1024, 1).padStart(7)} MiB  browse ${fmt(browseMs, 0)} ms  (${notes})`;
  } finally {
    rmSync(dataPath, { recursive: true, force: true });
  }
}

for (const size of sizes) {
  console.log(await cycle(size, {}));
  if (process.env.BENCH_SKIP_WRITE !== '1') console.log(await cycle(size, { write: true }));
}
