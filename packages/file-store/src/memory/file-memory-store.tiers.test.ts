import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@reverie/core';
import { afterEach, describe, expect, it } from 'vitest';
import { COLD_MEMORY_FOLDER } from './cold-tier';
import { FileMemoryStore } from './file-memory-store';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function open(dataPath = mkdtempSync(join(tmpdir(), 'reverie-tiers-'))) {
  roots.push(dataPath);
  return { dataPath, store: new FileMemoryStore({ dataPath, clock: new ManualClock('2026-03-01T12:00:00.000Z') }) };
}

describe('FileMemoryStore tiers (SPEC B13)', () => {
  it('keeps cold entries in memory-cold/ and never reads that folder on the hot path', async () => {
    const { dataPath, store } = open();
    const hot = await store.save({ content: 'The user rides a blue bicycle to work' });
    // Enough other entries that a match on rare words scores above COLD_FALLBACK.minBestScore.
    for (let i = 0; i < 20; i++) await store.save({ content: `Unrelated note number ${i} about the garden` });
    const cold = await store.save({ content: 'The user rode a scooter in 2019', category: 'transport', tier: 'cold' });
    expect(existsSync(join(dataPath, COLD_MEMORY_FOLDER, 'transport', `${cold.id}.json`))).toBe(true);
    expect(existsSync(join(dataPath, 'memory', 'transport'))).toBe(false);
    await store.close();

    // A second process that only recalls hot entries strongly never opens the cold tier.
    const again = new FileMemoryStore({ dataPath, clock: new ManualClock('2026-03-02T12:00:00.000Z') });
    const found = await again.search({ text: 'bicycle work', maxResults: 1 });
    expect(found.map((hit) => hit.entry.id)).toEqual([hot.id]);
    expect((again as unknown as { cold: { loaded: boolean } }).cold.loaded).toBe(false);
    expect(await again.get(cold.id)).toMatchObject({ id: cold.id, tier: 'cold' });
    expect((again as unknown as { cold: { loaded: boolean } }).cold.loaded).toBe(true);
    await again.close();
  });

  it('costs a memory without tiers nothing: no memory-cold/ folder is read or made', async () => {
    const { dataPath, store } = open();
    const saved = await store.save({ id: 'abcdef012345', content: 'Imported with its own id' });
    expect(await store.get('0123456789ab')).toBeUndefined();
    expect(await store.delete('0123456789ab')).toBe(false);
    expect((await store.search({ text: 'nothing matches this', tiers: 'all' })).length).toBe(0);
    expect((await store.list()).map((entry) => entry.id)).toEqual([saved.id]);
    expect(existsSync(join(dataPath, COLD_MEMORY_FOLDER))).toBe(false);
    expect((store as unknown as { cold: { loaded: boolean } }).cold.loaded).toBe(false);
    await store.close();
  });

  it('moves an entry both ways, and deletes a cold one', async () => {
    const { dataPath, store } = open();
    const entry = await store.save({ content: 'The user likes jazz' });
    const cold = await store.save({ ...entry, tier: 'cold' });
    expect(existsSync(join(dataPath, 'memory', 'general', `${entry.id}.json`))).toBe(false);
    await expect(store.save({ ...cold, tier: 'hot' }, { ifUpdatedAt: entry.updatedAt })).rejects.toMatchObject({ code: 'CONFLICT' });
    const back = await store.save({ ...cold, tier: 'hot' }, { ifUpdatedAt: cold.updatedAt });
    expect(back.tier).toBeUndefined();
    expect(existsSync(join(dataPath, COLD_MEMORY_FOLDER, 'general', `${entry.id}.json`))).toBe(false);
    await store.save({ ...back, tier: 'cold' });
    expect(await store.delete(entry.id)).toBe(true);
    expect(await store.get(entry.id)).toBeUndefined();
    expect(await store.list()).toEqual([]);
    await store.close();
  });

  it('loses nothing when a move stops between its two writes: the hot copy wins and the next move completes it', async () => {
    const { dataPath, store } = open();
    const entry = await store.save({ content: 'The user keeps a sourdough starter' });
    await store.close();
    // What a crash after the cold write and before the hot delete leaves: the entry in both folders.
    const stale = { ...entry, tier: 'cold', updatedAt: '2026-03-01T12:00:01.000Z' };
    mkdirSync(join(dataPath, COLD_MEMORY_FOLDER, 'general'), { recursive: true });
    writeFileSync(join(dataPath, COLD_MEMORY_FOLDER, 'general', `${entry.id}.json`), JSON.stringify(stale));

    const again = new FileMemoryStore({ dataPath, clock: new ManualClock('2026-03-02T12:00:00.000Z') });
    expect(await again.get(entry.id)).toEqual(entry);
    expect((await again.list()).map((item) => item.id)).toEqual([entry.id]);
    expect((await again.search({ text: 'sourdough', tiers: 'all' })).map((hit) => hit.entry.id)).toEqual([entry.id]);
    const moved = await again.save({ ...entry, tier: 'cold' }, { ifUpdatedAt: entry.updatedAt });
    expect(moved.tier).toBe('cold');
    expect(await again.list({ tier: 'cold' })).toEqual([moved]);
    expect(await again.list({ tier: 'hot' })).toEqual([]);
    await again.close();
  });
});
