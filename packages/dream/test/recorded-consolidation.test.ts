import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InMemoryLongTermMemory, ManualClock, silentLogger } from '@reverie/core';
import { textModel } from './__fixtures__/text-model';
import { DreamEngine, MemoryConsolidationPass, type RanPassOutcome } from '../src/index';
import { FileDreamStateStore } from '@reverie/file-store';

/**
 * SPEC B4, B11: a real model's consolidation of a redundant memory, recorded through the bridge (see
 * the fixture's README), replayed through today's guards. The model paraphrased, reordered,
 * abbreviated and changed inflection the way real models do; at least 95 % of its merges must go
 * through. Moving a protected entry out of its category stays refused by design (SPEC B4).
 */
const FIXTURE = join(__dirname, '__fixtures__', 'recorded', 'consolidation-170');
const SEEDED = Date.parse('2026-11-20T09:00:00.000Z');
const DREAMED = '2026-11-23T09:00:00.000Z';

interface RecordedEntry {
  id: string;
  category: string;
  content: string;
  importance: number;
  daysAgo: number;
}
interface RecordedItem {
  content: string;
  category?: string;
  sourceIds: string[];
}
interface RecordedReply {
  toDelete: string[];
  toSave: RecordedItem[];
}

const read = (name: string) => readFileSync(join(FIXTURE, name), 'utf8');
const replies = [1, 2].map((call) => ({
  first: JSON.parse(read(`call-${call}.reply.txt`)) as RecordedReply,
  repair: JSON.parse(read(`call-${call}.repair.reply.txt`)) as RecordedReply,
}));

/** The source lists of the recorded merges the replay could send (all their sources shown in one request). */
const replayed = new Set<string>();

/**
 * The recorded replies of both calls, as one: the replay shows every entry in one call (a large
 * token budget), so every recorded merge can be sent again whatever the packing. A repair request
 * gets the recorded repair replies. Restricted to what the request shows.
 */
function replay(data: string): RecordedReply {
  const shown = new Set([...data.matchAll(/^\[([0-9a-f]{12})\]/gm)].map((match) => match[1]!));
  const repair = data.includes('Repair needed');
  const recorded = replies.map((call) => (repair ? call.repair : call.first));
  const toSave = recorded.flatMap((reply) => reply.toSave).filter((item) => item.sourceIds.every((id) => shown.has(id)));
  for (const item of toSave) replayed.add(item.sourceIds.join());
  return { toDelete: recorded.flatMap((reply) => reply.toDelete).filter((id) => shown.has(id)), toSave };
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a recorded real-model consolidation, replayed through the guards (SPEC B11)', () => {
  it('accepts at least 95 % of the real model merges', { timeout: 60_000 }, async () => {
    const entries = JSON.parse(read('memory.json')) as RecordedEntry[];
    const clock = new ManualClock(new Date(SEEDED).toISOString());
    const memory = new InMemoryLongTermMemory({ clock });
    for (const entry of entries) {
      const at = new Date(SEEDED - entry.daysAgo * 86_400_000).toISOString();
      await memory.save({
        id: entry.id,
        content: entry.content,
        category: entry.category,
        importance: entry.importance,
        createdAt: at,
        lastSeenAt: at,
      });
    }
    clock.set(DREAMED);
    const dataPath = mkdtempSync(join(tmpdir(), 'reverie-recorded-'));
    dirs.push(dataPath);
    const model = textModel(replay);
    const engine = new DreamEngine(
      { dataPath, clock, state: new FileDreamStateStore({ dataPath, clock }), logger: silentLogger, memory, model },
      [new MemoryConsolidationPass({ tokenBudget: 200_000, maxOutputTokens: 50_000 })],
    );
    const report = await engine.run({ trigger: 'recorded' });
    const outcome = report.passes[0] as RanPassOutcome;

    const live = new Set((await memory.list()).map((entry) => entry.id));
    const recordedMerges = replies.flatMap((call) => call.first.toSave).filter((item) => item.sourceIds.length >= 2);
    const merges = recordedMerges.filter((item) => replayed.has(item.sourceIds.join()));
    expect(merges.length).toBe(recordedMerges.length);
    const folded = merges.filter((item) => item.sourceIds.every((id) => !live.has(id)));
    const refused = outcome.refusals;
    const share = folded.length / merges.length;
    console.log(
      `recorded real-model consolidation: ${folded.length}/${merges.length} merges accepted (${(share * 100).toFixed(1)} %; ${recordedMerges.length - merges.length} not replayable), ${entries.length} → ${live.size} entries`,
    );
    for (const line of refused) console.log(`  ${line}`);
    expect(share).toBeGreaterThanOrEqual(0.95);
  });
});
