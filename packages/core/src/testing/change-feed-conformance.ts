import { describe, expect, it, type TestContext } from 'vitest';
import { hasChangeFeed, type ILongTermMemory } from '../interfaces/long-term-memory';
import type { IMemoryChangeFeed, MemoryChange } from '../interfaces/memory-change-feed';
import type { ConformanceOptions, useStoreHarness } from './conformance-context';

type Harness = ReturnType<typeof useStoreHarness<ILongTermMemory>>;
type FeedStore = ILongTermMemory & IMemoryChangeFeed;

/** Reads the whole feed from `since`, page by page. */
async function readAll(
  store: FeedStore,
  since: string,
  limit?: number,
): Promise<{ changes: MemoryChange[]; cursor: string; pages: number }> {
  const changes: MemoryChange[] = [];
  let cursor = since;
  let pages = 0;
  for (;;) {
    const page = await store.changes({ since: cursor, ...(limit ? { limit } : {}) });
    expect(page.reset).toBe(false);
    changes.push(...page.changes);
    cursor = page.cursor;
    pages += 1;
    if (!page.more) return { changes, cursor, pages };
  }
}

const brief = (changes: readonly MemoryChange[]) => changes.map(({ id, op }) => ({ id, op }));

/**
 * SPEC B12: the optional change feed of `ILongTermMemory` (`changes`, `neighbours`, and
 * `neighbourIds` when the store has it). Run by
 * `describeLongTermMemoryConformance`. A store without the feed skips these cases, unless
 * `options.changeFeed` says it must have one.
 */
export function describeChangeFeedConformance(harness: Harness, options: ConformanceOptions): void {
  describe('change feed (SPEC B12)', () => {
    const open = async (context: TestContext): Promise<FeedStore> => {
      const store = await harness.open();
      if (options.changeFeed)
        expect(hasChangeFeed(store), 'options.changeFeed is set but the store has no changes()/neighbours()').toBe(true);
      if (!hasChangeFeed(store)) context.skip('this store has no change feed: the dream passes list every entry instead');
      return store as FeedStore;
    };

    it('starts a reader at the head with a reset, then reports saves and deletes in order', async (context) => {
      const store = await open(context);
      const before = await store.save({ content: 'Written before the reader started' });
      const start = await store.changes();
      expect(start).toMatchObject({ changes: [], more: false, reset: true });
      expect(typeof start.cursor).toBe('string');

      const a = await store.save({ content: 'The user moved to Porto' });
      const b = await store.save({ content: 'The user prefers tea' });
      await store.save({ id: a.id, content: 'The user moved to Porto in May' });
      await store.delete(before.id);
      await store.delete(b.id);
      expect(await store.delete(b.id)).toBe(false);
      const { changes, cursor } = await readAll(store, start.cursor);
      expect(brief(changes)).toEqual([
        { id: a.id, op: 'save' },
        { id: b.id, op: 'save' },
        { id: a.id, op: 'save' },
        { id: before.id, op: 'delete' },
        { id: b.id, op: 'delete' },
      ]);
      expect(changes.at(-1)!.cursor).toBe(cursor);
      expect(await store.changes({ since: cursor })).toMatchObject({ changes: [], cursor, more: false, reset: false });
    });

    it('pages with a limit, resumes from any change, and reading changes nothing', async (context) => {
      const store = await open(context);
      const { cursor: start } = await store.changes();
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await store.save({ content: `Fact number ${i} about the garden` })).id);
      const first = await store.changes({ since: start, limit: 3 });
      expect(first).toMatchObject({ more: true, reset: false });
      expect(first.changes.map((change) => change.id)).toEqual(ids.slice(0, 3));
      const paged = await readAll(store, start, 3);
      expect(paged.changes.map((change) => change.id)).toEqual(ids);
      expect(paged.pages).toBe(3);
      const middle = paged.changes[4]!.cursor;
      expect((await readAll(store, middle)).changes.map((change) => change.id)).toEqual(ids.slice(5));
      // Reading twice gives the same answer: the feed is not consumed by reading it.
      expect(brief((await readAll(store, start)).changes)).toEqual(brief(paged.changes));
    });

    it('leaves a failed write out of the feed', async (context) => {
      const store = await open(context);
      const entry = await store.save({ content: 'A fact with a version' });
      const { cursor } = await store.changes();
      await expect(store.save({ id: entry.id, content: 'stale write' }, { ifUpdatedAt: '2020-01-01T00:00:00.000Z' })).rejects.toMatchObject(
        { code: 'CONFLICT' },
      );
      await expect(store.save({ content: '' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      expect((await store.changes({ since: cursor })).changes).toEqual([]);
    });

    it('answers a cursor it did not write with a reset, and refuses bad queries', async (context) => {
      const store = await open(context);
      await store.save({ content: 'Something to change' });
      const foreign = await store.changes({ since: 'not-a-cursor-of-this-store' });
      expect(foreign).toMatchObject({ changes: [], reset: true, more: false });
      expect((await store.changes({ since: foreign.cursor })).reset).toBe(false);
      await expect(store.changes({ since: 42 as unknown as string })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await expect(store.changes({ limit: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await expect(store.changes({ limit: 1.5 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });

    it('compacts only what every kept cursor has read past, and answers an older cursor with a reset (compactChanges, if the store has it)', async (context) => {
      const store = await open(context);
      if (!store.compactChanges) context.skip('this store does not compact its feed on request');
      const start = (await store.changes()).cursor;
      const first = await store.save({ content: 'The user moved to Porto' });
      const cursors = [start];
      for (const content of ['The user prefers tea', 'The user bought a bicycle', 'The user learns Portuguese']) {
        await store.save({ content });
        cursors.push((await store.changes({ since: cursors.at(-1)! })).cursor);
      }
      await store.delete(first.id);
      const after = (cursor: string) => readAll(store, cursor).then((read) => brief(read.changes));
      const expected = await Promise.all(cursors.map(after));
      // Nothing of this feed to keep (no cursor, or cursors of another store): nothing goes.
      expect(await store.compactChanges!([])).toEqual({ removed: 0 });
      expect(await store.compactChanges!(['another-store.3', 'not a cursor'])).toEqual({ removed: 0 });
      expect(await Promise.all(cursors.map(after))).toEqual(expected);

      // Two readers: one after the save of "bicycle", one after "Portuguese". The three changes
      // since `start` that both have read go (and any from before `start`).
      const { removed } = await store.compactChanges!([cursors[3]!, cursors[2]!, 'another-store.0']);
      expect(removed).toBeGreaterThanOrEqual(3);
      expect(await after(cursors[2]!)).toEqual(expected[2]);
      expect(await after(cursors[3]!)).toEqual(expected[3]);
      // A cursor from before what was kept is told to list everything, never given a page that skips changes.
      expect(await store.changes({ since: start })).toMatchObject({ changes: [], reset: true, more: false });
      expect(await store.changes({ since: cursors[1]! })).toMatchObject({ changes: [], reset: true, more: false });
      // Compacting again through the same cursors removes nothing more; later writes are kept.
      expect(await store.compactChanges!([cursors[2]!])).toEqual({ removed: 0 });
      const later = await store.save({ content: 'The user adopted a cat' });
      expect((await after(cursors[3]!)).at(-1)).toEqual({ id: later.id, op: 'save' });
    });

    it('finds the neighbours of entries, best first, never the entry itself', async (context) => {
      const store = await open(context);
      const tea = await store.save({ content: 'The user drinks green tea every morning' });
      const tea2 = await store.save({ content: 'Every morning the user has a cup of green tea' });
      const coffee = await store.save({ content: 'The user dislikes coffee in the morning' });
      await store.save({ content: 'The deployment pipeline runs on Kubernetes' });
      const found = await store.neighbours([tea.id, '0123456789ab'], { limit: 2 });
      expect([...found.keys()]).toEqual([tea.id]);
      const hits = found.get(tea.id)!;
      expect(hits.length).toBeLessThanOrEqual(2);
      expect(hits.map((hit) => hit.entry.id)).not.toContain(tea.id);
      expect(hits[0]!.entry.id).toBe(tea2.id);
      expect(hits.map((hit) => hit.entry.id)).toContain(coffee.id);
      expect(hits[0]!.score).toBeGreaterThanOrEqual(hits.at(-1)!.score);
      // Copies: changing a neighbour changes nothing stored.
      hits[0]!.entry.tags.push('mutated');
      hits[0]!.entry.metadata.source = 'mutated';
      expect(await store.get(tea2.id)).toMatchObject({ tags: [], metadata: {} });
      await expect(store.neighbours(['../etc'])).rejects.toMatchObject({ code: 'INVALID_ID' });
      await expect(store.neighbours([tea.id], { limit: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });

    it('finds only facts that hold now as neighbours (SPEC B9): a superseded entry is nobody’s neighbour', async (context) => {
      const store = await open(context);
      const gym = await store.save({ content: 'Ana goes to the FitLab gym on Mondays' });
      const newer = await store.save({ content: 'Ana goes to the IronHouse gym on Mondays now' });
      const old = await store.save({
        content: 'Ana goes to the CoreBox gym on Mondays',
        validTo: '2026-01-01T00:00:00.000Z',
        supersededBy: newer.id,
      });
      await store.save({ content: 'The deployment pipeline runs on Kubernetes' });
      const hits = await store.neighbours([gym.id, old.id], { limit: 5 });
      expect(hits.get(gym.id)!.map((hit) => hit.entry.id)).toEqual([newer.id]);
      // The superseded entry itself still has neighbours when asked about.
      expect(
        hits
          .get(old.id)!
          .map((hit) => hit.entry.id)
          .sort(),
      ).toEqual([gym.id, newer.id].sort());
    });

    it('answers neighbourIds() with the ids and scores neighbours() gives, when it has it', async (context) => {
      const store = await open(context);
      if (typeof store.neighbourIds !== 'function') context.skip('this store has no neighbourIds(): callers reduce neighbours() instead');
      const gym = await store.save({ content: 'Ana goes to the FitLab gym on Mondays' });
      const newer = await store.save({ content: 'Ana goes to the IronHouse gym on Mondays now' });
      await store.save({ content: 'Ana goes to the CoreBox gym on Mondays', validTo: '2026-01-01T00:00:00.000Z', supersededBy: newer.id });
      await store.save({ content: 'Ana swims at the lido on Mondays' });
      await store.save({ content: 'The deployment pipeline runs on Kubernetes' });
      const asked = [gym.id, newer.id, gym.id, '0123456789ab'];
      for (const limit of [1, 3]) {
        const full = await store.neighbours(asked, { limit });
        const ids = await store.neighbourIds!(asked, { limit });
        expect([...ids.keys()]).toEqual([...full.keys()]);
        for (const [id, hits] of full) expect(ids.get(id)).toEqual(hits.map((hit) => ({ id: hit.entry.id, score: hit.score })));
      }
      expect((await store.neighbourIds!([gym.id], { limit: 5 })).get(gym.id)!.length).toBeGreaterThan(1);
      await expect(store.neighbourIds!(['../etc'])).rejects.toMatchObject({ code: 'INVALID_ID' });
      await expect(store.neighbourIds!([gym.id], { limit: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });

    if (options.persistent) {
      it('keeps its history across a reopen', async (context) => {
        const store = await open(context);
        const { cursor } = await store.changes();
        const a = await store.save({ content: 'Saved before the reopen' });
        const reopened = (await harness.reopen(store)) as FeedStore;
        const b = await reopened.save({ content: 'Saved after the reopen' });
        await reopened.delete(a.id);
        expect(brief((await readAll(reopened, cursor)).changes)).toEqual([
          { id: a.id, op: 'save' },
          { id: b.id, op: 'save' },
          { id: a.id, op: 'delete' },
        ]);
      });

      it('sees what another instance on the same storage wrote', async (context) => {
        const writer = await open(context);
        const reader = (await harness.open()) as FeedStore;
        const { cursor } = await reader.changes();
        const a = await writer.save({ content: 'Written by another process' });
        await writer.delete(a.id);
        expect(brief((await readAll(reader, cursor)).changes)).toEqual([
          { id: a.id, op: 'save' },
          { id: a.id, op: 'delete' },
        ]);
      });
    }
  });
}
