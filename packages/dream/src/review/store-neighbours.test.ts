import { InMemoryLongTermMemory } from '@reverie/core';
import { describe, expect, it, vi } from 'vitest';
import { type FeedStore, withoutChangeFeed } from '../changes/memory-feed';
import { type StoreHit, StoreNeighbours } from './store-neighbours';

async function memoryOf(count: number) {
  const memory = new InMemoryLongTermMemory();
  const ids: string[] = [];
  for (let n = 0; n < count; n++) ids.push((await memory.save({ content: `Ticket t${n % 50} is about service s${n}` })).id);
  return { memory, ids };
}

describe('StoreNeighbours', () => {
  it('asks the store in slices for ids and scores only, and never asks twice for as many neighbours', async () => {
    const { memory, ids } = await memoryOf(150);
    const asked = vi.spyOn(memory, 'neighbourIds');
    const copied = vi.spyOn(memory, 'neighbours');
    const neighbours = new StoreNeighbours(memory);

    await neighbours.fetch([...ids, ids[0]!], 3);
    expect(asked.mock.calls.map(([slice]) => slice.length)).toEqual([64, 64, 22]);
    expect(neighbours.found.size).toBe(150);
    const hits = neighbours.found.get(ids[0]!)!;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]).toEqual({ id: expect.any(String), score: expect.any(Number) });
    expect(copied).not.toHaveBeenCalled();
    expect(hits.map((hit) => hit.id)).toEqual((await memory.neighbours([ids[0]!], { limit: 3 })).get(ids[0]!)!.map((hit) => hit.entry.id));

    asked.mockClear();
    await neighbours.fetch(ids.slice(0, 10), 3);
    expect(asked).not.toHaveBeenCalled();
    await neighbours.fetch(ids.slice(0, 10), 8);
    expect(asked.mock.calls).toEqual([[ids.slice(0, 10), { limit: 8 }]]);
  });

  it('reduces neighbours() to ids and scores for a store without neighbourIds()', async () => {
    const { memory, ids } = await memoryOf(150);
    const withoutIds: FeedStore = Object.assign(withoutChangeFeed(memory), {
      changes: memory.changes.bind(memory),
      neighbours: memory.neighbours.bind(memory),
    });
    const fallback = new StoreNeighbours(withoutIds);
    const direct = new StoreNeighbours(memory);

    await fallback.fetch(ids, 3);
    await direct.fetch(ids, 3);

    expect(fallback.found.size).toBe(150);
    expect(fallback.found).toEqual(direct.found);
    expect(fallback.found.get(ids[0]!)![0]).toEqual({ id: expect.any(String), score: expect.any(Number) });
  });

  it("hands the ids over a slice at a time with the store's answer for each, and keeps none of it", async () => {
    const { memory, ids } = await memoryOf(150);
    const neighbours = new StoreNeighbours(memory);
    const unknown = '0123456789ab';
    const sizes: number[] = [];
    const answers = new Map<string, readonly StoreHit[]>();

    await neighbours.eachSlice([...ids, unknown], 3, (slice, found) => {
      expect([...found.keys()].sort()).toEqual([...slice].sort());
      sizes.push(slice.length);
      for (const [id, hits] of found) answers.set(id, hits);
    });

    expect(sizes).toEqual([64, 64, 23]);
    expect(answers.get(unknown)).toEqual([]);
    const direct = await memory.neighbourIds(ids, { limit: 3 });
    for (const id of ids) expect(answers.get(id)).toEqual(direct.get(id));
    expect(neighbours.found.size).toBe(0);
  });

  it('answers the ids already asked about with as many neighbours from what it kept, and asks the store for the rest', async () => {
    const { memory, ids } = await memoryOf(150);
    const neighbours = new StoreNeighbours(memory);
    await neighbours.fetch(ids.slice(0, 100), 3);
    const asked = vi.spyOn(memory, 'neighbourIds');
    const answers = new Map<string, readonly StoreHit[]>();

    await neighbours.eachSlice(ids, 3, (_slice, found) => {
      for (const [id, hits] of found) answers.set(id, hits);
    });

    expect(asked.mock.calls.flatMap(([slice]) => slice).sort()).toEqual(ids.slice(100).sort());
    const direct = await memory.neighbourIds(ids, { limit: 3 });
    for (const id of ids) expect(answers.get(id)).toEqual(direct.get(id));
  });
});
