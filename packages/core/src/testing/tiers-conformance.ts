import { describe, expect, it, type TestContext } from 'vitest';
import { hasTiers, type ILongTermMemory } from '../interfaces/long-term-memory';
import { COLD_FALLBACK } from '../memory/memory-tiers';
import type { ConformanceOptions, useStoreHarness } from './conformance-context';

type Harness = ReturnType<typeof useStoreHarness<ILongTermMemory>>;

/**
 * SPEC B13: hot and cold tiers. Run by `describeLongTermMemoryConformance`. A store without
 * tiers (`store.tiers` not true) keeps every entry hot: it must still take `tiers` in a search
 * and `tier: 'hot'` in a listing (`reverie`'s memory answers `list({ tier: 'cold' })` for it
 * with nothing), and the cases that need a cold tier are skipped, saying so, unless
 * `options.tiers` says the store must have them.
 */
export function describeTiersConformance(harness: Harness, options: ConformanceOptions): void {
  describe('tiers (SPEC B13)', () => {
    const open = async (context: TestContext): Promise<ILongTermMemory> => {
      const store = await harness.open();
      if (options.tiers) expect(hasTiers(store), 'options.tiers is set but the store has no tiers').toBe(true);
      if (!hasTiers(store)) context.skip('this store has no tiers: every entry stays hot and tier-migration skips it');
      return store;
    };

    it('a store without tiers still takes tiers in a search and tier in a listing', async () => {
      const store = await harness.open();
      const saved = await store.save({ content: 'The user keeps bees on the roof' });
      expect((await store.search({ text: 'bees', tiers: 'all' })).map((hit) => hit.entry.id)).toEqual([saved.id]);
      expect((await store.search({ text: 'bees', tiers: 'hot' })).map((hit) => hit.entry.id)).toEqual([saved.id]);
      expect((await store.list({ tier: 'hot' })).map((entry) => entry.id)).toEqual([saved.id]);
      await expect(store.search({ text: 'bees', tiers: 'some' as 'all' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });

    it('stores a cold entry as cold, keeps the tier when a replacing draft leaves it out, and moves it back', async (context) => {
      const store = await open(context);
      const entry = await store.save({ content: 'The user once owned a red bicycle' });
      expect(entry.tier).toBeUndefined();
      const cold = await store.save({ ...entry, tier: 'cold' });
      expect(cold.tier).toBe('cold');
      expect(await store.get(entry.id)).toEqual(cold);
      const edited = await store.save({ id: entry.id, content: 'The user once owned a red racing bicycle' });
      expect(edited.tier).toBe('cold');
      const hot = await store.save({ ...edited, tier: 'hot' });
      expect(hot.tier).toBeUndefined();
      expect(await store.get(entry.id)).toEqual(hot);
    });

    it('lists both tiers, or one with list({ tier })', async (context) => {
      const store = await open(context);
      const a = await store.save({ content: 'Hot fact about tea' });
      const b = await store.save({ content: 'Cold fact about coffee', tier: 'cold' });
      expect((await store.list()).map((entry) => entry.id).sort()).toEqual([a.id, b.id].sort());
      expect((await store.list({ tier: 'hot' })).map((entry) => entry.id)).toEqual([a.id]);
      expect((await store.list({ tier: 'cold' })).map((entry) => entry.id)).toEqual([b.id]);
      await expect(store.list({ tier: 'lukewarm' as 'hot' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      expect((await store.listCategories()).find((count) => count.category === 'general')?.count).toBe(2);
    });

    it('searches the hot tier only with tiers: hot, both with tiers: all, and marks cold hits', async (context) => {
      const store = await open(context);
      const hot = await store.save({ content: 'The user plays the violin in an orchestra' });
      const cold = await store.save({ content: 'The user played the violin as a child', tier: 'cold' });
      expect((await store.search({ text: 'violin', tiers: 'hot' })).map((hit) => hit.entry.id)).toEqual([hot.id]);
      const all = await store.search({ text: 'violin', tiers: 'all' });
      expect(all.map((hit) => hit.entry.id).sort()).toEqual([hot.id, cold.id].sort());
      expect(all.find((hit) => hit.entry.id === cold.id)?.entry.tier).toBe('cold');
      expect((await store.search({ tiers: 'hot' })).map((hit) => hit.entry.id)).toEqual([hot.id]);
      expect((await store.search({ tiers: 'all', maxResults: 5 })).length).toBe(2);
    });

    it('falls back to the cold tier by default when the hot results are fewer than asked, not otherwise', async (context) => {
      const store = await open(context);
      const cold = await store.save({ content: 'The user collected stamps from Iceland', tier: 'cold' });
      // Nothing hot matches: the cold hit comes back, marked.
      const found = await store.search({ text: 'stamps Iceland' });
      expect(found.map((hit) => hit.entry.id)).toEqual([cold.id]);
      expect(found[0]!.entry.tier).toBe('cold');
      // Enough strong hot hits: the cold tier is not read.
      const hot = [];
      for (let i = 0; i < 3; i++) hot.push(await store.save({ content: `The user collected stamps from Iceland, album ${i}` }));
      const strong = await store.search({ text: 'stamps Iceland', maxResults: 3 });
      expect(strong.length).toBe(3);
      if (strong[0]!.score >= COLD_FALLBACK.minBestScore) expect(strong.every((hit) => hit.entry.tier === undefined)).toBe(true);
      // Fewer hot hits than asked: topped up from the cold tier.
      const topped = await store.search({ text: 'stamps Iceland', maxResults: 5 });
      expect(topped.map((hit) => hit.entry.id)).toContain(cold.id);
    });

    it('keeps cold entries out of the neighbour lists', async (context) => {
      const store = await open(context);
      if (typeof store.neighbourIds !== 'function') context.skip('this store has no neighbour lists');
      const a = await store.save({ content: 'The user grows tomatoes on the balcony' });
      const b = await store.save({ content: 'The user grows tomatoes and basil on the balcony' });
      const c = await store.save({ content: 'The user grew tomatoes on the balcony last year', tier: 'cold' });
      const lists = await store.neighbourIds!([a.id], { limit: 5 });
      const ids = [...(lists.get(a.id) ?? [])].map((neighbour) => neighbour.id);
      expect(ids).toContain(b.id);
      expect(ids).not.toContain(c.id);
    });

    if (options.persistent) {
      it('keeps the tiers across a reopen', async (context) => {
        let store = await open(context);
        const hot = await store.save({ content: 'Hot: the user speaks Portuguese' });
        const cold = await store.save({ content: 'Cold: the user spoke Portuguese at school', tier: 'cold' });
        store = await harness.reopen(store);
        expect((await store.get(cold.id))?.tier).toBe('cold');
        expect((await store.search({ text: 'Portuguese', tiers: 'hot' })).map((hit) => hit.entry.id)).toEqual([hot.id]);
        expect((await store.search({ text: 'Portuguese', tiers: 'all' })).length).toBe(2);
        await store.save({ id: cold.id, content: 'Cold: the user spoke Portuguese at school', tier: 'hot' });
        store = await harness.reopen(store);
        expect((await store.search({ text: 'Portuguese', tiers: 'hot' })).length).toBe(2);
      });
    }
  });
}
