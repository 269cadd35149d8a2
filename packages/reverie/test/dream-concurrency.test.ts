import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createReverie, type CycleReport, type RanPassOutcome } from 'reverie';
import { bundleDreamChild } from './__fixtures__/child-bundle';
import { seedCrashFixture } from './__fixtures__/crash-fixture';

// SPEC B2/O3 across processes: an agent process writes and searches memory through the API
// while a dream runs in another process on the same data directory. The dream's scripted model
// is slow, so the agent rewrites the near-duplicates the dream plans to merge between the
// dream's read and its apply: the engine's optimistic checks must turn those into conflicts.
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, '..');
/** `__fixtures__/dream-child.ts` bundled with the workspace sources (see child-bundle.ts). */
let child: string;
let bundleDir: string;
beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), 'reverie-dream-concurrency-bundle-'));
  child = await bundleDreamChild(bundleDir);
}, 60_000);
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

interface Running {
  proc: ChildProcessWithoutNullStreams;
  lines: Array<Record<string, unknown>>;
  started: Promise<void>;
  exited: Promise<void>;
}

function start(args: string[]): Running {
  const proc = spawn(process.execPath, [child, ...args], { cwd: packageDir });
  const lines: Array<Record<string, unknown>> = [];
  let buffer = '';
  let stderr = '';
  let onStarted!: () => void;
  const started = new Promise<void>((resolveStarted) => (onStarted = resolveStarted));
  proc.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      if (line.started) onStarted();
    }
  });
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolveExit, reject) => {
    proc.on('error', reject);
    proc.on('exit', (code, signal) =>
      code === 0 ? resolveExit() : reject(new Error(`${args[0]} exited with ${code ?? signal}: ${stderr}`)),
    );
  });
  exited.catch(() => onStarted());
  return { proc, lines, started, exited };
}

let dataPath: string;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-dream-concurrency-'));
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

describe('an agent writing while a dream runs in another process', () => {
  it('keeps every agent write, and the dream never clobbers a newer agent change', async () => {
    await seedCrashFixture(dataPath, { seed: 3, pairs: 3, contested: 2 });
    const agent = start(['agent', dataPath]);
    await agent.started;
    const dream = start(['dream', dataPath, '1500']);
    await dream.exited;
    const writesDuringDream = agent.lines.filter((line) => line.write).length;
    // Let the agent write a little longer after the dream, then stop it.
    await new Promise((resolveWait) => setTimeout(resolveWait, 300));
    agent.proc.stdin.end();
    await agent.exited;

    const report = dream.lines.find((line) => line.report)!.report as CycleReport;
    const outcome = (name: string) => report.passes.find((pass) => pass.name === name) as RanPassOutcome;
    expect(writesDuringDream).toBeGreaterThan(10);
    expect(agent.lines.filter((line) => line.search !== undefined).length).toBeGreaterThan(3);
    expect(outcome('memory-consolidation').status).toBe('ok');
    // The agent rewrote the contested near-duplicates after the dream read them: their merges conflict.
    expect(outcome('memory-consolidation').conflicts).toBeGreaterThan(0);

    // The last agent write of every id, in order.
    const last = new Map<string, { write: string; content?: string }>();
    for (const line of agent.lines)
      if (line.write) last.set(line.id as string, { write: line.write as string, content: line.content as string | undefined });

    const reverie = createReverie({ dataPath }).withMemory().build();
    try {
      const live = await reverie.memory!.list();
      const problems: string[] = [];
      for (const [id, write] of last) {
        const entry = live.find((candidate) => candidate.id === id);
        if (write.write === 'delete') {
          if (entry) problems.push(`${id} was deleted by the agent but is live again`);
          continue;
        }
        if (entry) {
          if (entry.content !== write.content)
            problems.push(`${id} reads ${JSON.stringify(entry.content)}, the agent's last write was ${JSON.stringify(write.content)}`);
        } else if (!live.some((candidate) => candidate.content.includes(write.content!))) {
          // Gone is only fine when the dream merged exactly the agent's last version into another entry.
          problems.push(`${id} (${JSON.stringify(write.content)}) is gone and no entry holds its content`);
        }
      }
      const duplicated = live.filter((entry) => / Also: /.test(entry.content)).length;
      console.info(
        `dream-concurrency: ${last.size} ids written by the agent (${writesDuringDream} writes during the dream), ${outcome('memory-consolidation').conflicts} consolidation conflict(s), ${duplicated} merged entr(y/ies) live`,
      );
      expect(problems).toEqual([]);
      expect(last.size).toBeGreaterThan(5);
    } finally {
      await reverie.close();
    }
  }, 120_000);
});
