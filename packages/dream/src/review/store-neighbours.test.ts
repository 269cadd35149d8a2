import { InMemoryLongTermMemory } from '@reverie/core';
import { describe, expect, it, vi } from 'vitest';
import { StoreNeighbours } from './store-neighbours';

async function memoryOf(count: number) {
  const memory = new InMemoryLongTermMemory();
  const ids: string[] = [];
  for (let n = 0; n < count; n++) ids.push((await memory.save({ content: `Ticket t${n % 50} is about service s${n}` })).id);
  return { memory, ids };
}

describe('StoreNeighbours', () => {
  it('asks the store in slices, keeps ids and scores only, and never asks twice for as many neighbours', async () => {
    const { memory, ids } = await memoryOf(150);
    const asked = vi.spyOn(memory, 'neighbours');
    const neighbours = new StoreNeighbours(memory);

    await neighbours.fetch([...ids, ids[0]!], 3);
    expect(asked.mock.calls.map(([slice]) => slice.length)).toEqual([64, 64, 22]);
    expect(neighbours.found.size).toBe(150);
    const hits = neighbours.found.get(ids[0]!)!;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]).toEqual({ id: expect.any(String), score: expect.any(Number) });
    expect(hits.map((hit) => hit.id)).toEqual((await memory.neighbours([ids[0]!], { limit: 3 })).get(ids[0]!)!.map((hit) => hit.entry.id));

    asked.mockClear();
    await neighbours.fetch(ids.slice(0, 10), 3);
    expect(asked).not.toHaveBeenCalled();
    await neighbours.fetch(ids.slice(0, 10), 8);
    expect(asked.mock.calls).toEqual([[ids.slice(0, 10), { limit: 8 }]]);
  });

  it('hands the ids over a slice at a time with their neighbours held, and forgets each slice after', async () => {
    const { memory, ids } = await memoryOf(150);
    const neighbours = new StoreNeighbours(memory);
    const held: number[] = [];

    await neighbours.eachSlice(ids, 3, (slice) => {
      expect(slice.every((id) => neighbours.found.has(id))).toBe(true);
      held.push(neighbours.found.size);
    });

    expect(held).toEqual([64, 64, 22]);
    expect(neighbours.found.size).toBe(0);
  });
});
