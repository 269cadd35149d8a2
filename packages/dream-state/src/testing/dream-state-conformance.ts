// Over 400 lines on purpose: the dream state's conformance cases read as one checklist that a state
// store's author runs and reads top to bottom.
import { describe, expect, it } from 'vitest';
import { isReverieError } from '@reverie/core';
import { type DreamStateStore, holdingLock } from '../dream-state-store';
import { EMPTY_CURSOR } from '../records/consolidation-cursor';
import type { DeadLetter } from '../records/dead-letter';
import type { LedgerLine } from '../records/ledger-line';
import type { RecallEvent } from '../records/recall-event';
import { foldRecallEvents } from '../records/recall-signals';
import type { SavedPlan } from '../records/saved-plan';
import { type DreamStateFactory, useDreamStateScope } from './dream-state-scope';

/**
 * The behaviour every `DreamStateStore` must show, as a vitest suite: runs (plan, archive,
 * journal, artifacts, list, remove), dead letters, saved plans, the ledger and sessions,
 * cursors (the consolidation cursor's fingerprints included), recall events and signals, and the
 * lock (exclusive, taken over from a crashed holder, released at close). Call it from a test file
 * of your store, with `describeDreamEngineConformance` (`@reverie/dream/testing`), the engine on
 * top of it, beside it:
 *
 * ```ts
 * describeDreamStateConformance('MyDreamState', ({ clock, scope }) => ({
 *   open: async () => new MyDreamState({ clock, scope }),
 *   crash: async (store) => (store as MyDreamState).dropConnection(),
 * }));
 * ```
 */
export function describeDreamStateConformance(name: string, factory: DreamStateFactory): void {
  describe(`${name} — DreamStateStore conformance`, () => {
    const h = useDreamStateScope(factory);
    const { open, iso } = h;

    describe('runs', () => {
      it('creates a run that another handle opens and lists, running, with its links', async () => {
        const [a, b] = [await open(), await open()];
        const run = await a.runs.create({
          runId: 'a00000000001',
          trigger: 'manual',
          startedAt: iso(),
          retryOf: 'b00000000001',
          planId: 'c00000000001',
        });
        expect(run.runId).toBe('a00000000001');
        const seen = await b.runs.open('a00000000001');
        expect(seen?.state).toMatchObject({
          runId: 'a00000000001',
          trigger: 'manual',
          startedAt: iso(),
          status: 'running',
          passes: [],
          retryOf: 'b00000000001',
          planId: 'c00000000001',
        });
        expect((await b.runs.list()).map(({ manifest }) => manifest.runId)).toEqual(['a00000000001']);
        expect(await b.runs.open('ffffffffffff')).toBeUndefined();
      });

      it('records a plan as the pass being applied, and updates the manifest durably', async () => {
        const [a, b] = [await open(), await open()];
        const run = await a.runs.create({ runId: 'a00000000002', trigger: 'manual', startedAt: iso() });
        const plan = {
          pass: 'merge',
          operations: [{ op: 'memory.delete' as const, id: 'aaaaaaaaaaaa', expectUpdatedAt: iso(), reason: 'duplicate' }],
          notes: ['one'],
          refusals: [],
          commit: { through: 3 },
        };
        await run.writePlan(plan);
        expect(run.state).toMatchObject({ passes: ['merge'], applying: 'merge' });
        const other = (await b.runs.open('a00000000002'))!;
        expect(other.state).toMatchObject({ passes: ['merge'], applying: 'merge' });
        expect(await other.readPlan('merge')).toEqual(plan);
        await run.update({ applying: undefined, status: 'complete', completedAt: iso(1000) });
        const after = (await b.runs.open('a00000000002'))!.state;
        expect(after).toMatchObject({ status: 'complete', completedAt: iso(1000) });
        expect(after.applying).toBeUndefined();
      });

      it('keeps the first pre-image of a record per pass, for any handle', async () => {
        const [a, b] = [await open(), await open()];
        const run = await a.runs.create({ runId: 'a00000000003', trigger: 'manual', startedAt: iso() });
        await run.archive('merge', [{ kind: 'memory', key: 'aaaaaaaaaaaa', record: { content: 'first' } }]);
        await run.archive('merge', [
          { kind: 'memory', key: 'aaaaaaaaaaaa', record: { content: 'second' } },
          { kind: 'skill', key: 'deploy', record: { name: 'deploy' } },
        ]);
        await run.archive('decay', [{ kind: 'memory', key: 'aaaaaaaaaaaa', record: { content: 'decay saw this' } }]);
        await run.archive('merge', []);
        const other = (await b.runs.open('a00000000003'))!;
        expect(await other.readArchive('merge', 'memory', 'aaaaaaaaaaaa')).toEqual({ content: 'first' });
        expect(await other.readArchive('merge', 'skill', 'deploy')).toEqual({ name: 'deploy' });
        expect(await other.readArchive('decay', 'memory', 'aaaaaaaaaaaa')).toEqual({ content: 'decay saw this' });
        expect(await other.readArchive('merge', 'memory', 'bbbbbbbbbbbb')).toBeUndefined();
        expect(await other.readArchive('merge', 'conversation-log', 'through-3')).toBeUndefined();
      });

      it('puts every journal line on record for another handle as it is appended, in order', async () => {
        const [a, b] = [await open(), await open()];
        const run = await a.runs.create({ runId: 'a00000000004', trigger: 'manual', startedAt: iso() });
        const journal = await run.openJournal();
        await journal.append({ pass: 'merge', index: 0, outcome: 'applied', updatedAt: iso() });
        await journal.append({ pass: 'merge', index: 1, outcome: 'conflict' });
        const other = (await b.runs.open('a00000000004'))!;
        expect(await other.readJournal()).toEqual([
          { pass: 'merge', index: 0, outcome: 'applied', updatedAt: iso() },
          { pass: 'merge', index: 1, outcome: 'conflict' },
        ]);
        await journal.close();
        const more = await run.openJournal();
        await more.append({ pass: 'decay', index: 0, outcome: 'noop' });
        await more.close();
        expect((await other.readJournal()).map((line) => `${line.pass}#${line.index}`)).toEqual(['merge#0', 'merge#1', 'decay#0']);
      });

      it('keeps artifacts whole, lists them, and refuses a name that is not plain', async () => {
        const [a, b] = [await open(), await open()];
        const run = await a.runs.create({ runId: 'a00000000005', trigger: 'manual', startedAt: iso() });
        await run.writeArtifact('merge.1.prompt.md', 'the prompt');
        await run.writeArtifact('report.json', '{"runId":"a00000000005"}\n');
        await run.writeArtifact('report.json', '{"runId":"a00000000005","passes":[]}\n');
        await run.syncArtifacts();
        const other = (await b.runs.open('a00000000005'))!;
        expect(await other.readArtifact('merge.1.prompt.md')).toBe('the prompt');
        expect(await other.readArtifact('report.json')).toBe('{"runId":"a00000000005","passes":[]}\n');
        expect(await other.readArtifact('summary.md')).toBeUndefined();
        const names = await other.listArtifacts();
        expect(names).toEqual(expect.arrayContaining(['merge.1.prompt.md', 'report.json']));
        expect(names).toEqual([...names].sort());
        await expect(run.writeArtifact('../escape.md', 'x')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      });

      it('removes a run with everything it recorded', async () => {
        const [a, b] = [await open(), await open()];
        const keep = await a.runs.create({ runId: 'a00000000006', trigger: 'manual', startedAt: iso() });
        const gone = await a.runs.create({ runId: 'a00000000007', trigger: 'manual', startedAt: iso(1) });
        await gone.archive('merge', [{ kind: 'memory', key: 'aaaaaaaaaaaa', record: {} }]);
        await b.runs.remove('a00000000007');
        await b.runs.remove('ffffffffffff');
        expect(await a.runs.open('a00000000007')).toBeUndefined();
        expect((await a.runs.list()).map(({ manifest }) => manifest.runId)).toEqual([keep.runId]);
      });
    });

    describe('dead letters', () => {
      const letter = (runId: string, extra: Partial<DeadLetter> = {}): DeadLetter => ({
        runId,
        trigger: 'manual',
        failedAt: iso(),
        passes: [{ name: 'merge', error: 'MODEL_REPLY_INVALID: no JSON' }],
        ...extra,
      });

      it('writes, replaces, lists and removes dead letters by run', async () => {
        const [a, b] = [await open(), await open()];
        expect(await b.deadLetters.read('a00000000001')).toBeUndefined();
        await a.deadLetters.write(letter('a00000000001'));
        await a.deadLetters.write(letter('a00000000002'));
        await a.deadLetters.write(
          letter('a00000000001', {
            retries: 1,
            lastRetry: { runId: 'a00000000003', at: iso(1), passes: [{ name: 'merge', status: 'failed' }] },
          }),
        );
        expect(await b.deadLetters.read('a00000000001')).toEqual(
          letter('a00000000001', {
            retries: 1,
            lastRetry: { runId: 'a00000000003', at: iso(1), passes: [{ name: 'merge', status: 'failed' }] },
          }),
        );
        expect((await b.deadLetters.list()).sort()).toEqual(['a00000000001', 'a00000000002']);
        await b.deadLetters.remove('a00000000001');
        await b.deadLetters.remove('ffffffffffff');
        expect(await a.deadLetters.list()).toEqual(['a00000000002']);
        expect(await a.deadLetters.read('a00000000001')).toBeUndefined();
      });
    });

    describe('saved plans', () => {
      const plan = (planId: string, createdAt: string): SavedPlan => ({
        schemaVersion: 1,
        planId,
        createdAt,
        trigger: 'manual',
        passes: [{ name: 'importance-decay', phase: 'deep-sleep', status: 'skipped', reason: 'nothing to do' }],
      });

      it('saves plans that another handle reads, lists newest first and marks applied', async () => {
        const [a, b] = [await open(), await open()];
        await a.plans.save(plan('a00000000001', iso()), '# Dream plan a00000000001\n');
        await a.plans.save(plan('a00000000002', iso(60_000)), '# Dream plan a00000000002\n');
        expect((await b.plans.read('a00000000001')).plan).toEqual(plan('a00000000001', iso()));
        expect((await b.plans.list()).map(({ plan: saved }) => saved.planId)).toEqual(['a00000000002', 'a00000000001']);
        await b.plans.markApplied('a00000000001', { runId: 'b00000000001', appliedAt: iso(120_000) });
        expect((await a.plans.read('a00000000001')).applied).toEqual({ runId: 'b00000000001', appliedAt: iso(120_000) });
        expect((await a.plans.read('a00000000002')).applied).toBeUndefined();
      });

      it('answers PLAN_NOT_FOUND for an unknown or malformed id', async () => {
        const store = await open();
        await expect(store.plans.read('ffffffffffff')).rejects.toMatchObject({ code: 'PLAN_NOT_FOUND' });
        await expect(store.plans.read('../plans')).rejects.toMatchObject({ code: 'PLAN_NOT_FOUND' });
      });
    });

    describe('ledger and sessions', () => {
      const line = (pass: string, startedAt: string): LedgerLine => ({
        schemaVersion: 1,
        runId: 'a00000000001',
        startedAt,
        completedAt: startedAt,
        phase: 'deep-sleep',
        pass,
        dryRun: false,
        trigger: 'manual',
        status: 'ok',
        durationMs: 5,
        itemsProcessed: 2,
        applied: 1,
        tokens: { input: 0, output: 0 },
        notes: ['a note'],
      });

      it('appends ledger lines that every handle reads back in order', async () => {
        const [a, b] = [await open(), await open()];
        expect(await b.ledger.read()).toEqual({ lines: [], invalidLines: 0 });
        await a.ledger.append(line('importance-decay', iso()));
        await b.ledger.append(line('archive-retention', iso(1)));
        expect((await a.ledger.read()).lines).toEqual([line('importance-decay', iso()), line('archive-retention', iso(1))]);
      });

      it('loses no line when handles append at once', async () => {
        const stores = [await open(), await open(), await open()];
        await Promise.all(
          stores.flatMap((store, s) => Array.from({ length: 10 }, (_, i) => store.ledger.append(line(`pass-${s}-${i}`, iso(i))))),
        );
        expect((await stores[0]!.ledger.read()).lines).toHaveLength(30);
      });

      it('appends completed sessions that every handle reads back', async () => {
        const [a, b] = [await open(), await open()];
        await a.sessions.append({ sessionId: 's1', endedAt: iso() });
        await b.sessions.append({ sessionId: 's2', endedAt: iso(1) });
        expect((await a.sessions.read()).lines).toEqual([
          { sessionId: 's1', endedAt: iso() },
          { sessionId: 's2', endedAt: iso(1) },
        ]);
      });
    });

    describe('cursors', () => {
      it('keeps one value per pass, replaced whole', async () => {
        const [a, b] = [await open(), await open()];
        expect(await b.cursors.read('skill-gap')).toBeUndefined();
        await a.cursors.write('skill-gap', { afterSeq: 3 });
        await a.cursors.write('episode-extraction', { extractedThroughSeq: 9, extra: ['x'] });
        await a.cursors.write('skill-gap', { afterSeq: 7 });
        expect(await b.cursors.read('skill-gap')).toEqual({ afterSeq: 7 });
        expect(await b.cursors.read('episode-extraction')).toEqual({ extractedThroughSeq: 9, extra: ['x'] });
      });

      it('keeps the consolidation cursor with its fingerprints, changes and forgets them', async () => {
        const [a, b] = [await open(), await open()];
        const empty = await b.cursors.readConsolidation('memory-consolidation');
        expect(empty).toMatchObject({ version: 1, written: {}, retry: {} });
        expect(empty.seen.get('aaaaaaaaaaaa')).toBeUndefined();
        const first = {
          ...empty,
          entries: { at: iso(), id: 'aaaaaaaaaaaa' },
          feed: 'feed-1',
          retry: { bbbbbbbbbbbb: { attempts: 1, after: iso(3_600_000) } },
        };
        await a.cursors.writeConsolidation('memory-consolidation', first, empty, {
          changes: [
            ['aaaaaaaaaaaa', 'AAAAAAAAAAAA'],
            ['bbbbbbbbbbbb', 'BBBBBBBBBBBB'],
            ['cccccccccccc', 'CCCCCCCCCCCC'],
          ],
        });
        const read = await b.cursors.readConsolidation('memory-consolidation');
        expect(read).toMatchObject({
          entries: { at: iso(), id: 'aaaaaaaaaaaa' },
          feed: 'feed-1',
          retry: { bbbbbbbbbbbb: { attempts: 1, after: iso(3_600_000) } },
        });
        expect(['aaaaaaaaaaaa', 'bbbbbbbbbbbb', 'cccccccccccc'].map((id) => read.seen.get(id))).toEqual([
          'AAAAAAAAAAAA',
          'BBBBBBBBBBBB',
          'CCCCCCCCCCCC',
        ]);

        await b.cursors.writeConsolidation('memory-consolidation', { ...read, feed: 'feed-2' }, read, {
          changes: [
            ['aaaaaaaaaaaa', 'ZZZZZZZZZZZZ'],
            ['bbbbbbbbbbbb', null],
          ],
        });
        const changed = await a.cursors.readConsolidation('memory-consolidation');
        expect(changed.feed).toBe('feed-2');
        expect(['aaaaaaaaaaaa', 'bbbbbbbbbbbb', 'cccccccccccc'].map((id) => changed.seen.get(id))).toEqual([
          'ZZZZZZZZZZZZ',
          undefined,
          'CCCCCCCCCCCC',
        ]);

        // A run that listed every entry forgets the fingerprints of the others.
        await a.cursors.writeConsolidation('memory-consolidation', changed, changed, {
          changes: [['dddddddddddd', 'DDDDDDDDDDDD']],
          live: new Set(['cccccccccccc', 'dddddddddddd']),
        });
        const listed = await b.cursors.readConsolidation('memory-consolidation');
        expect(['aaaaaaaaaaaa', 'cccccccccccc', 'dddddddddddd'].map((id) => listed.seen.get(id))).toEqual([
          undefined,
          'CCCCCCCCCCCC',
          'DDDDDDDDDDDD',
        ]);
        expect(listed.feed).toBe('feed-2');
      });

      it('keeps consolidation cursors of different passes apart', async () => {
        const store = await open();
        await store.cursors.writeConsolidation('memory-consolidation', { ...EMPTY_CURSOR, feed: 'one' }, EMPTY_CURSOR, {
          changes: [['aaaaaaaaaaaa', 'AAAAAAAAAAAA']],
        });
        const other = await store.cursors.readConsolidation('another-consolidation');
        expect(other.feed).toBeUndefined();
        expect(other.seen.get('aaaaaaaaaaaa')).toBeUndefined();
      });
    });

    describe('recall events and signals', () => {
      const event = (entryId: string, offsetMs = 0): RecallEvent => ({ at: iso(offsetMs), entryId, relevance: 1, source: 'turn' });
      /** Folds what is new into the signals and writes them, as the recall-signals pass does. */
      const fold = async (store: DreamStateStore) => {
        const signals = await store.recall.readSignals();
        const { events, position } = await store.recall.readNewEvents(signals);
        Object.assign(signals, position);
        foldRecallEvents(signals.entries, events);
        await store.recall.writeSignals(signals);
        return { signals, events };
      };
      const hits = async (store: DreamStateStore) => {
        const signals = await store.recall.readSignals();
        const counts = new Map(Object.entries(signals.entries).map(([id, tally]) => [id, tally.hits]));
        for (const { entryId } of (await store.recall.readNewEvents(signals)).events) counts.set(entryId, (counts.get(entryId) ?? 0) + 1);
        return Object.fromEntries(counts);
      };

      it('starts empty and folds each appended event once', async () => {
        const [a, b] = [await open(), await open()];
        expect(await b.recall.readSignals()).toMatchObject({ schemaVersion: 1, entries: {} });
        expect((await b.recall.readNewEvents(await b.recall.readSignals())).events).toEqual([]);
        await a.recall.appendEvents([event('aaaaaaaaaaaa'), event('bbbbbbbbbbbb')]);
        await a.recall.appendEvents([]);
        expect((await fold(b)).events).toEqual([event('aaaaaaaaaaaa'), event('bbbbbbbbbbbb')]);
        expect((await fold(b)).events).toEqual([]);
        await a.recall.appendEvents([event('aaaaaaaaaaaa', 1)]);
        const { signals, events } = await fold(b);
        expect(events).toEqual([event('aaaaaaaaaaaa', 1)]);
        expect(signals.entries.aaaaaaaaaaaa).toMatchObject({ hits: 2, firstHitAt: iso(), lastHitAt: iso(1) });
        expect((await a.recall.readSignals()).entries).toEqual(signals.entries);
      });

      it('counts every event exactly once across a compaction', async () => {
        const [a, b] = [await open(), await open()];
        await a.recall.appendEvents([event('aaaaaaaaaaaa'), event('bbbbbbbbbbbb')]);
        const { signals } = await fold(b);
        await a.recall.appendEvents([event('aaaaaaaaaaaa', 1)]);
        await b.recall.compactEvents(signals, { compactEventsBytes: 1 });
        expect(await hits(b)).toEqual({ aaaaaaaaaaaa: 2, bbbbbbbbbbbb: 1 });
        await a.recall.appendEvents([event('cccccccccccc', 2)]);
        await fold(a);
        expect(await hits(b)).toEqual({ aaaaaaaaaaaa: 2, bbbbbbbbbbbb: 1, cccccccccccc: 1 });
        expect((await b.recall.readNewEvents(await b.recall.readSignals())).events).toEqual([]);
      });

      it('keeps entries and the feed cursor written with the signals', async () => {
        const store = await open();
        const signals = await store.recall.readSignals();
        foldRecallEvents(signals.entries, [event('aaaaaaaaaaaa')]);
        signals.entries.aaaaaaaaaaaa!.promotedAt = iso(5);
        signals.entries.aaaaaaaaaaaa!.hitsAtPromotion = 1;
        await store.recall.writeSignals({ ...signals, memoryFeed: 'feed-9' });
        expect(await (await open()).recall.readSignals()).toMatchObject({
          memoryFeed: 'feed-9',
          entries: { aaaaaaaaaaaa: { hits: 1, promotedAt: iso(5), hitsAtPromotion: 1 } },
        });
      });
    });

    describe('lock', () => {
      it('is held by one handle at a time and names its holder', async () => {
        const [a, b] = [await open(), await open()];
        expect(await b.lock.state()).toEqual({ status: 'free' });
        const held = await a.lock.acquire('a00000000001');
        expect(held.holder.runId).toBe('a00000000001');
        await expect(b.lock.acquire('b00000000001')).rejects.toMatchObject({ code: 'LOCK_HELD' });
        expect(await b.lock.state()).toMatchObject({ status: 'held', stale: false, holder: { runId: 'a00000000001' } });
        await held.release();
        await held.release();
        expect(await b.lock.state()).toEqual({ status: 'free' });
        expect(await holdingLock(b.lock, async (holder) => holder.runId, 'b00000000001')).toBe('b00000000001');
        expect(await a.lock.state()).toEqual({ status: 'free' });
      });

      it('never lets two handles hold it at once', async () => {
        const stores = await Promise.all(Array.from({ length: 5 }, () => open()));
        const attempts = await Promise.allSettled(stores.map((store, index) => store.lock.acquire(`a0000000000${index}`)));
        const won = attempts.filter((attempt) => attempt.status === 'fulfilled');
        expect(won).toHaveLength(1);
        for (const attempt of attempts) if (attempt.status === 'rejected') expect(isReverieError(attempt.reason, 'LOCK_HELD')).toBe(true);
      });

      it('is taken over once its holder crashed', async () => {
        const [a, b] = [await open(), await open()];
        await a.lock.acquire('a00000000001');
        await expect(b.lock.acquire()).rejects.toMatchObject({ code: 'LOCK_HELD' });
        await h.crash(a);
        const taken = await b.lock.acquire('b00000000001');
        expect(await (await open()).lock.state()).toMatchObject({ status: 'held', holder: { runId: 'b00000000001' } });
        await taken.release();
      });

      it('is released when its store is closed', async () => {
        const [a, b] = [await open(), await open()];
        await a.lock.acquire('a00000000001');
        await a.close();
        const taken = await b.lock.acquire('b00000000001');
        await taken.release();
      });
    });
  });
}
