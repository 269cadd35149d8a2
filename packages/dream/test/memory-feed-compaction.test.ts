import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemoryLongTermMemory, type ManualClock } from '@reverie/core';
import { DreamEngine } from '../src/engine/dream-engine';
import type { DreamServices, PassOutcome } from '../src/engine/dream-types';
import { MemoryConsolidationPass } from '../src/passes/memory-consolidation/memory-consolidation-pass';
import { RecallSignalsPass } from '../src/recall/recall-signals-pass';
import { failingPass, freshEngineServices } from './__fixtures__/engine-services';

let dataPath: string;
let clock: ManualClock;
let memory: InMemoryLongTermMemory;
let services: DreamServices;
beforeEach(() => void ({ dataPath, clock, memory, services } = freshEngineServices('reverie-feed-compaction-')));
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

const notesOf = (outcome: PassOutcome | undefined) => (outcome && outcome.status !== 'skipped' ? outcome.notes : []);
const saveSome = async (...contents: string[]) => {
  for (const content of contents) await memory.save({ content });
};
/** Whether the feed still holds what came after `cursor` (false: it answers with a reset). */
const stillHolds = async (cursor: string) => !(await memory.changes({ since: cursor })).reset;

describe('memory change-feed compaction after a cycle', () => {
  it('forgets the changes every feed reader has passed, and keeps what a reader still needs', async () => {
    const before = (await memory.changes()).cursor;
    await saveSome('The user moved to Porto', 'The user prefers tea', 'The user rides a bicycle');
    const engine = new DreamEngine(services, [new MemoryConsolidationPass(), new RecallSignalsPass()]);
    await engine.run({ trigger: 'manual' });
    // Both readers listed everything once and read on from the head: the changes before it are gone.
    expect(await stillHolds(before)).toBe(false);

    await saveSome('The user learns Portuguese', 'The user adopted a cat');
    const second = await engine.run({ trigger: 'manual' });
    expect(notesOf(second.passes[0])[0]).toMatch(/^change feed: 2 change\(s\) read/);
    expect(notesOf(second.passes[1])).toContain('change feed: 2 memory change(s) read');
  });

  it('holds back for the oldest reader; a reader that falls behind what is kept lists every entry', async () => {
    await saveSome('The user moved to Porto', 'The user prefers tea');
    const consolidation = new MemoryConsolidationPass();
    const recall = new RecallSignalsPass();
    await new DreamEngine(services, [consolidation, recall]).run({ trigger: 'manual' });
    const recallCursor = (await services.state.recall.readSignals()).memoryFeed!;

    await saveSome('The user learns Portuguese');
    // Run with both readers: recall-signals' cursor holds the feed back while consolidation reads on.
    await new DreamEngine(services, [consolidation, recall]).run({ trigger: 'manual', passes: ['memory-consolidation'] });
    expect(await stillHolds(recallCursor)).toBe(true);
    expect(
      notesOf((await new DreamEngine(services, [consolidation, recall]).run({ trigger: 'manual', passes: ['recall-signals'] })).passes[0]),
    ).toContain('change feed: 1 memory change(s) read');

    // An engine that does not know recall-signals compacts past its cursor…
    const staleCursor = (await services.state.recall.readSignals()).memoryFeed!;
    await saveSome('The user adopted a cat');
    await new DreamEngine(services, [consolidation]).run({ trigger: 'manual' });
    expect(await stillHolds(staleCursor)).toBe(false);
    // …and recall-signals, told its cursor is too old, lists every entry instead of skipping a change.
    const behind = await new DreamEngine(services, [consolidation, recall]).run({ trigger: 'manual', passes: ['recall-signals'] });
    expect(notesOf(behind.passes[0])).toContain('change feed: every entry listed once');
  });

  it('compacts nothing after a dry run, a failed pass or an interrupted cycle', async () => {
    const before = (await memory.changes()).cursor;
    await saveSome('The user moved to Porto', 'The user prefers tea');
    const failing = failingPass;
    await new DreamEngine(services, [new MemoryConsolidationPass()]).run({ trigger: 'manual', dryRun: true });
    expect(await stillHolds(before)).toBe(true);
    const failed = await new DreamEngine(services, [new MemoryConsolidationPass(), failing]).run({ trigger: 'manual' });
    expect(failed.passes.map((pass) => pass.status)).toEqual(['ok', 'failed']);
    expect(await stillHolds(before)).toBe(true);
    const stop = new AbortController();
    stop.abort(new Error('the user is typing'));
    const interrupted = await new DreamEngine(services, [new MemoryConsolidationPass()]).run({ trigger: 'manual', signal: stop.signal });
    expect(interrupted.interrupted).toBeDefined();
    expect(await stillHolds(before)).toBe(true);
    await new DreamEngine(services, [new MemoryConsolidationPass()]).run({ trigger: 'manual' });
    expect(await stillHolds(before)).toBe(false);
  });

  it('leaves a store without compactChanges alone', async () => {
    // A custom store with a change feed written before compactChanges existed.
    const plain = new InMemoryLongTermMemory({ clock });
    Object.defineProperty(plain, 'compactChanges', { value: undefined });
    const before = (await plain.changes()).cursor;
    await plain.save({ content: 'The user moved to Porto' });
    const report = await new DreamEngine({ ...services, memory: plain }, [new MemoryConsolidationPass()]).run({ trigger: 'manual' });
    expect(report.passes[0]?.status).toBe('ok');
    expect((await plain.changes({ since: before })).reset).toBe(false);
  });
});
