import { InMemoryLongTermMemory, type ILongTermMemory } from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { ReverieMemory } from './reverie-memory';

/** A custom store written before tiers: it keeps no `tiers` flag and ignores `tier` in a listing. */
function tierless(): ILongTermMemory {
  const store = new InMemoryLongTermMemory();
  return {
    get: (id) => store.get(id),
    save: (draft, condition) => store.save({ ...draft, tier: 'hot' }, condition),
    delete: (id, condition) => store.delete(id, condition),
    search: (query) => store.search(query),
    list: (options) => store.list(options?.category === undefined ? {} : { category: options.category }),
    listCategories: () => store.listCategories(),
    close: () => store.close(),
  };
}

describe('ReverieMemory over a store without tiers (SPEC B13)', () => {
  it('answers list({ tier }) as if every entry were hot', async () => {
    const memory = new ReverieMemory(tierless());
    const saved = await memory.save({ content: 'The user keeps bees' });
    expect((await memory.list({ tier: 'hot' })).map((entry) => entry.id)).toEqual([saved.id]);
    expect(await memory.list({ tier: 'cold' })).toEqual([]);
    await expect(memory.list({ tier: 'warm' as 'hot' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
