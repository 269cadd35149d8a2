import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ILongTermMemory, InMemoryLongTermMemory, ManualClock, silentLogger } from '@reverie/core';
import {
  DreamEngine,
  type DreamServices,
  PromotionPass,
  promotionOptionsSchema,
  RecallSignalsPass,
  recallSignalsOptionsSchema,
} from '@reverie/dream';
import { explainPromotion } from '@reverie/dream/internal';
import { recallEventsPath, recallSignalsPath } from '@reverie/file-store/internal';
import { RecallEventLog } from '../src/dreaming/recall-event-log';
import { FileDreamStateStore } from '@reverie/file-store';

let dataPath: string;
let clock: ManualClock;
let memory: ILongTermMemory;
let services: DreamServices;
let recorder: RecallEventLog;
beforeEach(async () => {
  dataPath = await mkdtemp(join(tmpdir(), 'reverie-recall-passes-'));
  clock = new ManualClock('2026-06-01T00:00:00.000Z');
  memory = new InMemoryLongTermMemory({ clock });
  services = { dataPath, clock, state: new FileDreamStateStore({ dataPath, clock }), logger: silentLogger, memory };
  recorder = new RecallEventLog({ events: services.state.recall, clock, logger: silentLogger });
});
afterEach(async () => {
  await rm(dataPath, { recursive: true, force: true });
});

const engine = () => new DreamEngine(services, [new RecallSignalsPass(), new PromotionPass()]);
const explain = (entryId: string) =>
  explainPromotion(
    entryId,
    { recall: services.state.recall, memory, now: clock.now() },
    { signals: recallSignalsOptionsSchema.parse({}), promotion: promotionOptionsSchema.parse({}) },
  );

async function recall(times: number, results: Array<{ entryId: string; score: number }>): Promise<void> {
  for (let i = 0; i < times; i++) recorder.record(results, 'turn');
  await recorder.flush();
}

describe('recall-signals and promotion passes (SPEC O4)', () => {
  it('promote entries recalled often and well, once, without touching content or lastSeenAt', async () => {
    const hot = await memory.save({ content: 'The user deploys on Tuesdays', importance: 0.5 });
    const cold = await memory.save({ content: 'The user once visited Oslo', importance: 0.5 });
    clock.advance(60_000);
    await recall(4, [
      { entryId: hot.id, score: 3 },
      { entryId: cold.id, score: 0.3 },
    ]);

    const report = await engine().run({ trigger: 'test' });
    expect(report.passes.map((p) => [p.name, p.status])).toEqual([
      ['recall-signals', 'ok'],
      ['promotion', 'ok'],
    ]);
    const raised = (await memory.get(hot.id))!;
    expect(raised.importance).toBeCloseTo(0.65);
    expect(raised.content).toBe(hot.content);
    expect(raised.lastSeenAt).toBe(hot.lastSeenAt);
    expect((await memory.get(cold.id))!.importance).toBe(0.5);
    expect((await explain(hot.id)).status).toBe('promoted');
    const why = await explain(cold.id);
    expect(why.status).toBe('not-a-candidate');
    expect(why.reasons.join('\n')).toMatch(/score 0\.\d\d is below 0\.6/);

    // Nothing new recalled: nothing promoted again.
    const again = await engine().run({ trigger: 'test' });
    expect(again.passes.find((p) => p.name === 'promotion')).toMatchObject({ applied: 0 });
    // Three more recalls make it a candidate again.
    await recall(3, [{ entryId: hot.id, score: 1 }]);
    const third = await engine().run({ trigger: 'test' });
    expect((await memory.get(hot.id))!.importance).toBeCloseTo(0.8);

    // Undo gives the importance back.
    await engine().undo(third.runId);
    expect((await memory.get(hot.id))!.importance).toBeCloseTo(0.65);
  });

  it('raises from the decayed importance and stores the raise as of now, so it is not decayed twice (SPEC D7)', async () => {
    // 0.8, unseen for 30 + 45 days: worth 0.4 now.
    const faded = await memory.save({ content: 'The user deploys on Tuesdays', importance: 0.8, lastSeenAt: '2026-03-18T00:00:00.000Z' });
    clock.advance(60_000);
    await recall(4, [{ entryId: faded.id, score: 3 }]);
    await engine().run({ trigger: 'test' });
    const raised = (await memory.get(faded.id))!;
    expect(raised.importance).toBeCloseTo(0.55, 3);
    expect(raised.importanceAt).toBe(clock.now().toISOString());
    expect(raised.lastSeenAt).toBe(faded.lastSeenAt);
    const [browsed] = await memory.search({ maxResults: 1 });
    expect(browsed!.score).toBeCloseTo(0.55, 3);
  });

  it('counts every event once, reads only whole lines, and drops entries that are gone', async () => {
    const a = await memory.save({ content: 'alpha' });
    const b = await memory.save({ content: 'beta' });
    await recall(2, [
      { entryId: a.id, score: 1 },
      { entryId: b.id, score: 1 },
    ]);
    await appendFile(recallEventsPath(dataPath), `{"at":"2026-06-01T00:00:00.000Z","entryId":"${a.id}","relev`);
    await memory.delete(b.id);
    await engine().run({ trigger: 'test' });
    const folded = JSON.parse(await readFile(recallSignalsPath(dataPath), 'utf8'));
    expect(Object.keys(folded.entries)).toEqual([a.id]);
    expect(folded.entries[a.id].hits).toBe(2);
    // The torn line is completed later; it is then read once, as the whole line it became.
    await appendFile(recallEventsPath(dataPath), 'ance":1,"source":"turn"}\n');
    await engine().run({ trigger: 'test' });
    await engine().run({ trigger: 'test' });
    expect(JSON.parse(await readFile(recallSignalsPath(dataPath), 'utf8')).entries[a.id].hits).toBe(3);
  });

  it('drops deleted entries by reading the change feed, after listing once', async () => {
    const a = await memory.save({ content: 'alpha' });
    const b = await memory.save({ content: 'beta' });
    await recall(1, [
      { entryId: a.id, score: 1 },
      { entryId: b.id, score: 1 },
    ]);
    const listed = vi.spyOn(memory, 'list');
    const first = await engine().run({ trigger: 'test' });
    expect(listed).toHaveBeenCalledTimes(1);
    expect(first.passes[0]).toMatchObject({ notes: expect.arrayContaining(['change feed: every entry listed once']) });
    await memory.delete(b.id);
    await memory.save({ content: 'gamma' });
    await recall(1, [{ entryId: a.id, score: 1 }]);
    const second = await engine().run({ trigger: 'test' });
    expect(listed).toHaveBeenCalledTimes(1);
    expect(second.passes[0]).toMatchObject({ notes: expect.arrayContaining(['change feed: 2 memory change(s) read']) });
    expect(Object.keys(JSON.parse(await readFile(recallSignalsPath(dataPath), 'utf8')).entries)).toEqual([a.id]);
  });

  it('writes nothing in a dry run', async () => {
    const a = await memory.save({ content: 'alpha' });
    await recall(5, [{ entryId: a.id, score: 1 }]);
    const report = await engine().run({ trigger: 'test', dryRun: true });
    expect(report.passes.find((p) => p.name === 'recall-signals')).toMatchObject({ status: 'ok', itemsProcessed: 5 });
    expect(existsSync(recallSignalsPath(dataPath))).toBe(false);
    expect((await memory.get(a.id))!.importance).toBe(a.importance);
  });

  it('explains entries that do not exist or were never recalled', async () => {
    const a = await memory.save({ content: 'alpha' });
    expect(await explain('abcdef012345')).toMatchObject({ status: 'not-found' });
    await expect(explain('not an id')).rejects.toMatchObject({ code: 'INVALID_ID' });
    expect(await explain(a.id)).toMatchObject({ status: 'no-recalls', hits: 0 });
  });
});

describe('recall-events compaction (SPEC O4)', () => {
  const compacting = () => new DreamEngine(services, [new RecallSignalsPass({ compactEventsBytes: 1 }), new PromotionPass()]);
  const hits = async (id: string) => JSON.parse(await readFile(recallSignalsPath(dataPath), 'utf8')).entries[id]?.hits;

  it('drops the folded events once past compactEventsBytes, and counts every event once', async () => {
    const entry = await memory.save({ content: 'The user deploys on Tuesdays' });
    await recall(5, [{ entryId: entry.id, score: 1 }]);
    await compacting().run({ trigger: 'test' });
    expect(await hits(entry.id)).toBe(5);
    expect(existsSync(recallEventsPath(dataPath))).toBe(false);

    await recall(2, [{ entryId: entry.id, score: 1 }]);
    await compacting().run({ trigger: 'test' });
    expect(await hits(entry.id)).toBe(7);
    expect(existsSync(recallEventsPath(dataPath))).toBe(false);
  });

  it('finishes a compaction a crash interrupted after the events file was set aside, counting nothing twice', async () => {
    const entry = await memory.save({ content: 'The user deploys on Tuesdays' });
    await recall(3, [{ entryId: entry.id, score: 1 }]);
    await engine().run({ trigger: 'test' });
    expect(await hits(entry.id)).toBe(3);
    // The crash: the file was renamed aside (with one event appended after the fold), nothing else.
    await recall(1, [{ entryId: entry.id, score: 1 }]);
    const { rename } = await import('node:fs/promises');
    await rename(recallEventsPath(dataPath), recallEventsPath(dataPath).replace(/\.jsonl$/, '.folding-abcdefabcdef.jsonl'));
    await recall(2, [{ entryId: entry.id, score: 1 }]);

    await engine().run({ trigger: 'test' });
    expect(await hits(entry.id)).toBe(6);
    await engine().run({ trigger: 'test' });
    expect(await hits(entry.id)).toBe(6);
  });
});
