import { InMemoryLongTermMemory, ManualClock, RecordingLogger } from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { changeFeedOf, type FeedStore, readFeed, withoutChangeFeed as withoutFeed } from './memory-feed';

describe('changeFeedOf', () => {
  it('hands back a store with a feed, and says once per store when one has none', () => {
    const logger = new RecordingLogger();
    const store = new InMemoryLongTermMemory();
    expect(changeFeedOf(store, logger)).toBe(store);
    const plain = withoutFeed(store);
    expect(changeFeedOf(plain, logger)).toBeUndefined();
    expect(changeFeedOf(plain, logger)).toBeUndefined();
    expect(changeFeedOf(withoutFeed(store), logger)).toBeUndefined();
    const warnings = logger.records.filter((record) => record.level === 'warn');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]!.message).toMatch(/no change feed.*list every entry/);
  });
});

describe('readFeed', () => {
  const clock = new ManualClock('2026-03-01T00:00:00Z');

  it('answers a missing cursor with the head, to list everything once', async () => {
    const store = new InMemoryLongTermMemory({ clock });
    await store.save({ content: 'before' });
    const read = await readFeed(store, undefined, { maxSaved: 10 });
    expect(read).toMatchObject({ reset: true });
    if (!read.reset) throw new Error('expected a reset');
    const after = await store.save({ content: 'after' });
    const next = await readFeed(store, read.head, { maxSaved: 10 });
    expect(next).toMatchObject({ reset: false, read: 1, more: false });
    expect(!next.reset && next.saved.map((entry) => entry.id)).toEqual([after.id]);
  });

  it('returns live entries once, as they are now, and the ids deleted; skips _system and refused saves', async () => {
    const store: FeedStore = new InMemoryLongTermMemory({ clock });
    const { cursor } = await store.changes();
    const a = await store.save({ content: 'first wording' });
    await store.save({ id: a.id, content: 'second wording' });
    const b = await store.save({ content: 'to be deleted' });
    await store.delete(b.id);
    await store.save({ content: 'internal', category: '_system/notes' });
    const refused = await store.save({ content: 'not worth a look' });
    const read = await readFeed(store, cursor, { maxSaved: 10, accept: (entry) => entry.id !== refused.id });
    if (read.reset) throw new Error('unexpected reset');
    expect(read.saved.map((entry) => entry.content)).toEqual(['second wording']);
    expect(read.deleted).toEqual([b.id]);
    expect(read.read).toBe(6);
    expect(read.cursor).toBe((await store.changes({ since: cursor })).cursor);
  });

  it('leaves cold entries out of what changed: they are not in the working set (SPEC B13)', async () => {
    const store: FeedStore = new InMemoryLongTermMemory({ clock });
    const { cursor } = await store.changes();
    const hot = await store.save({ content: 'a hot fact' });
    const moved = await store.save({ content: 'a fact going cold' });
    await store.save({ ...moved, tier: 'cold' });
    await store.save({ content: 'a fact saved cold', tier: 'cold' });
    const read = await readFeed(store, cursor, { maxSaved: 10 });
    if (read.reset) throw new Error('unexpected reset');
    expect(read.saved.map((entry) => entry.id)).toEqual([hot.id]);
  });

  it('stops before the change that would exceed maxSaved, leaving it in the feed', async () => {
    const store: FeedStore = new InMemoryLongTermMemory({ clock });
    const { cursor } = await store.changes();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await store.save({ content: `fact ${i}` })).id);
    const first = await readFeed(store, cursor, { maxSaved: 2 });
    if (first.reset) throw new Error('unexpected reset');
    expect(first).toMatchObject({ more: true, read: 2 });
    expect(first.saved.map((entry) => entry.id)).toEqual(ids.slice(0, 2));
    const rest = await readFeed(store, first.cursor, { maxSaved: 10 });
    if (rest.reset) throw new Error('unexpected reset');
    expect(rest.saved.map((entry) => entry.id)).toEqual(ids.slice(2));
  });

  it('says reset for a cursor the store cannot follow', async () => {
    const store = new InMemoryLongTermMemory({ clock });
    expect(await readFeed(store, 'somewhere.else.1', { maxSaved: 5 })).toMatchObject({ reset: true });
  });
});
