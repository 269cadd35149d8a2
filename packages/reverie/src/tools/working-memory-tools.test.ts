import type { Tool } from 'ai';
import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryWorkingMemory, isReverieError, ManualClock, RecordingLogger } from '@reverie/core';
import { AgentTools } from './agent-tools';
import { createWorkingMemoryTools } from './working-memory-tools';

const call = async <I, O>(target: Tool<I, O>, input: I): Promise<O> =>
  (await target.execute!(input, { toolCallId: 'call-1', messages: [] })) as O;

const MINUTE = 60_000;

describe('working-memory tools', () => {
  let clock: ManualClock;
  let store: InMemoryWorkingMemory;
  let tools: ReturnType<typeof createWorkingMemoryTools>;

  beforeEach(async () => {
    clock = new ManualClock('2026-03-01T10:00:00.000Z');
    store = new InMemoryWorkingMemory({ clock });
    tools = new AgentTools({ workingMemory: store, logger: new RecordingLogger() }).workingMemory({ namespace: 'session/a' });
    await store.set('session/b/x', 'SECRET-OF-B', { category: 'email' });
    await store.set('patrol/heartbeat/latest-alert', 'SECRET-OF-PATROL: disk 91% full', { tags: ['urgent'] });
    await store.set('subagent/t1/research', 'SECRET-OF-SUBAGENT: three vendors compared');
  });

  const keys = async () => (await store.list()).map((entry) => entry.key);

  describe('binding a namespace', () => {
    it.each([['session'], ['session/a/b'], ['other/x'], ['session/..'], ['session/'], [''], ['session/a b '], ['/session/a']])(
      'refuses %j with INVALID_INPUT',
      (namespace) => {
        let code: string | undefined;
        try {
          createWorkingMemoryTools({ workingMemory: store, namespace });
        } catch (error) {
          code = isReverieError(error) ? error.code : 'not a ReverieError';
        }
        expect(code).toBe('INVALID_INPUT');
      },
    );

    it.each([['session/abc123'], ['patrol/heartbeat'], ['subagent/t1b2c3']])('accepts %j', (namespace) => {
      expect(Object.keys(createWorkingMemoryTools({ workingMemory: store, namespace })).sort()).toEqual([
        'get_from_working_memory',
        'list_working_memory',
        'save_to_working_memory',
        'search_working_memory',
      ]);
    });
  });

  describe('save_to_working_memory', () => {
    it('stores a plain key in the own namespace with the default 5-minute TTL', async () => {
      const result = await call(tools.save_to_working_memory, { key: 'inbox', data: '12 unread', category: 'email', tags: ['inbox'] });
      expect(result).toEqual({ key: 'session/a/inbox', expiresAt: '2026-03-01T10:05:00.000Z', status: 'saved' });
      expect(await store.get('session/a/inbox')).toMatchObject({ value: '12 unread', category: 'email', tags: ['inbox'] });
    });

    it('honours ttl_minutes', async () => {
      await call(tools.save_to_working_memory, { key: 'draft', data: 'Dear Sam', ttl_minutes: 30 });
      clock.advance(29 * MINUTE);
      expect((await store.get('session/a/draft'))?.value).toBe('Dear Sam');
      clock.advance(2 * MINUTE);
      expect(await store.get('session/a/draft')).toBeUndefined();
    });

    it('accepts a full key that lies in the own namespace', async () => {
      expect(await call(tools.save_to_working_memory, { key: 'session/a/notes/today', data: 'x' })).toMatchObject({
        key: 'session/a/notes/today',
      });
      expect(await keys()).toContain('session/a/notes/today');
    });

    it.each([['session/b/x'], ['patrol/x/y'], ['subagent/t1/research']])(
      'refuses to write %j in another namespace and writes nothing',
      async (key) => {
        const before = await store.list();
        const result = (await call(tools.save_to_working_memory, { key, data: 'overwritten' })) as { error: string; message: string };
        expect(result.error).toBe('NAMESPACE_VIOLATION');
        expect(result.message).toContain('own namespace "session/a"');
        expect(await store.list()).toEqual(before);
      },
    );

    it('answers a bad category with INVALID_CATEGORY and writes nothing', async () => {
      expect(await call(tools.save_to_working_memory, { key: 'inbox', data: 'x', category: '../up' })).toMatchObject({
        error: 'INVALID_CATEGORY',
      });
      expect(await keys()).not.toContain('session/a/inbox');
    });

    it('answers a key that cannot be a path with INVALID_KEY', async () => {
      expect(await call(tools.save_to_working_memory, { key: '../../escape', data: 'x' })).toMatchObject({ error: 'INVALID_KEY' });
      expect(await store.list()).toHaveLength(3);
    });
  });

  describe('get_from_working_memory', () => {
    it('reads a plain key from the own namespace, not a same-named key elsewhere', async () => {
      await store.set('session/a/x', 'mine');
      expect(await call(tools.get_from_working_memory, { key: 'x' })).toMatchObject({ found: true, key: 'session/a/x', value: 'mine' });
    });

    it('reads other namespaces by full key', async () => {
      expect(await call(tools.get_from_working_memory, { key: 'session/b/x' })).toMatchObject({ found: true, value: 'SECRET-OF-B' });
      expect(await call(tools.get_from_working_memory, { key: 'patrol/heartbeat/latest-alert' })).toEqual({
        found: true,
        key: 'patrol/heartbeat/latest-alert',
        value: 'SECRET-OF-PATROL: disk 91% full',
        expiresAt: '2026-03-01T10:05:00.000Z',
        tags: ['urgent'],
      });
    });

    it('says when nothing is stored, also once an entry expired', async () => {
      expect(await call(tools.get_from_working_memory, { key: 'nothing-here' })).toMatchObject({
        found: false,
        key: 'session/a/nothing-here',
      });
      clock.advance(6 * MINUTE);
      expect(await call(tools.get_from_working_memory, { key: 'session/b/x' })).toMatchObject({ found: false });
    });
  });

  describe('list_working_memory', () => {
    it('lists the own namespace by default, with keys, expiry, category and tags but no values', async () => {
      await call(tools.save_to_working_memory, { key: 'inbox', data: 'MY-VALUE', category: 'email', tags: ['unread'] });
      const listed = await call(tools.list_working_memory, {});
      expect(listed).toEqual({
        prefix: 'session/a',
        entries: [{ key: 'session/a/inbox', expiresAt: '2026-03-01T10:05:00.000Z', category: 'email', tags: ['unread'] }],
      });
      expect(JSON.stringify(listed)).not.toContain('MY-VALUE');
    });

    it('browses another prefix when asked, still without values', async () => {
      const patrol = await call(tools.list_working_memory, { namespace: 'patrol' });
      expect((patrol as { entries: Array<{ key: string }> }).entries.map((entry) => entry.key)).toEqual(['patrol/heartbeat/latest-alert']);
      const everything = JSON.stringify(
        await Promise.all(['session', 'patrol/', 'subagent/t1'].map((namespace) => call(tools.list_working_memory, { namespace }))),
      );
      expect(everything).toContain('subagent/t1/research');
      expect(everything).not.toContain('SECRET');
    });

    it('answers a prefix that is not a path with INVALID_INPUT', async () => {
      expect(await call(tools.list_working_memory, { namespace: '../..' })).toMatchObject({ error: 'INVALID_INPUT' });
    });
  });

  describe('search_working_memory', () => {
    beforeEach(async () => {
      await call(tools.save_to_working_memory, { key: 'alert-draft', data: 'draft reply about the disk alert', tags: ['urgent'] });
    });

    it('searches the own namespace by default, without values', async () => {
      const hits = await call(tools.search_working_memory, { query: 'disk alert' });
      expect((hits as Array<{ key: string }>).map((hit) => hit.key)).toEqual(['session/a/alert-draft']);
      expect(JSON.stringify(hits)).not.toContain('draft reply');
    });

    it('searches another namespace when asked', async () => {
      const hits = await call(tools.search_working_memory, { query: 'disk alert', namespace: 'patrol/heartbeat' });
      expect((hits as Array<{ key: string }>).map((hit) => hit.key)).toEqual(['patrol/heartbeat/latest-alert']);
      expect(JSON.stringify(hits)).not.toContain('SECRET');
    });

    it('filters by tags without a query', async () => {
      const hits = await call(tools.search_working_memory, { tags: ['urgent'], namespace: 'patrol' });
      expect((hits as Array<{ key: string }>).map((hit) => hit.key)).toEqual(['patrol/heartbeat/latest-alert']);
    });

    it('answers a bad category filter with INVALID_CATEGORY', async () => {
      expect(await call(tools.search_working_memory, { query: 'x', category: 'a//b' })).toMatchObject({ error: 'INVALID_CATEGORY' });
    });
  });
});
