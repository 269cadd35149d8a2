import { describe, expect, it } from 'vitest';
import type { IWorkingMemory } from '../interfaces/working-memory';
import { type ConformanceOptions, HOSTILE_PATHS, MINUTE, type StoreFactory, useStoreHarness } from './conformance-context';
import { NAME_WORDS, storedOrRefused, UNSTORABLE_FRAGMENTS, userTexts } from './user-text-corpus';

/**
 * The behaviour every `IWorkingMemory` must show (SPEC M7), as a vitest suite. The store must
 * use the context's clock and the defaults: a 5-minute TTL and 50 entries per namespace.
 */
export function describeWorkingMemoryConformance(
  name: string,
  factory: StoreFactory<IWorkingMemory>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} — IWorkingMemory conformance`, () => {
    const harness = useStoreHarness(factory, options);

    describe('set and get', () => {
      it('stores a value under its full key with storedAt and a 5-minute expiry', async () => {
        const store = await harness.open();
        const saved = await store.set('session/abc/inbox', '12 unread emails', { category: 'email', tags: ['inbox'] });
        const now = harness.clock.now().getTime();
        expect(saved).toMatchObject({ key: 'session/abc/inbox', value: '12 unread emails', category: 'email', tags: ['inbox'] });
        expect(new Date(saved.storedAt).getTime()).toBe(now);
        expect(new Date(saved.expiresAt).getTime()).toBe(now + 5 * MINUTE);
        expect(await store.get('session/abc/inbox')).toEqual(saved);
        expect(await store.get('session/abc/missing')).toBeUndefined();
      });

      it('overwrites a key and restarts its TTL', async () => {
        const store = await harness.open();
        await store.set('session/abc/draft', 'v1');
        harness.clock.advance(4 * MINUTE);
        await store.set('session/abc/draft', 'v2');
        harness.clock.advance(4 * MINUTE);
        expect((await store.get('session/abc/draft'))?.value).toBe('v2');
        expect(await store.list('session/abc')).toHaveLength(1);
      });
    });

    describe('expiry', () => {
      it('hides an entry once its TTL has passed', async () => {
        const store = await harness.open();
        await store.set('session/abc/short', 'gone soon');
        harness.clock.advance(5 * MINUTE - 1);
        expect(await store.get('session/abc/short')).toBeDefined();
        harness.clock.advance(1);
        expect(await store.get('session/abc/short')).toBeUndefined();
        expect(await store.list()).toEqual([]);
        expect(await store.search({ text: 'gone' })).toEqual([]);
      });

      it('honours a TTL given per entry', async () => {
        const store = await harness.open();
        await store.set('patrol/heartbeat/briefing', 'all quiet', { ttlMs: 4 * 60 * MINUTE });
        harness.clock.advance(3 * 60 * MINUTE);
        expect((await store.get('patrol/heartbeat/briefing'))?.value).toBe('all quiet');
      });

      it('sweeps expired entries and reports how many', async () => {
        const store = await harness.open();
        await store.set('session/abc/a', '1', { ttlMs: MINUTE });
        await store.set('session/abc/b', '2', { ttlMs: MINUTE });
        await store.set('session/abc/c', '3', { ttlMs: 10 * MINUTE });
        harness.clock.advance(2 * MINUTE);
        expect(await store.sweep()).toBe(2);
        expect((await store.list()).map((e) => e.key)).toEqual(['session/abc/c']);
      });

      it('refuses a TTL that is not a positive whole number of ms', async () => {
        const store = await harness.open();
        await expect(store.set('session/abc/x', 'v', { ttlMs: -5 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(store.set('session/abc/x', 'v', { ttlMs: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        expect(await store.list()).toEqual([]);
      });
    });

    describe('namespaces', () => {
      it('keeps at most 50 entries per namespace, evicting the oldest', async () => {
        const store = await harness.open();
        for (let i = 0; i < 55; i++) {
          await store.set(`session/abc/item-${String(i).padStart(2, '0')}`, `value ${i}`);
          harness.clock.advance(10);
        }
        await store.set('session/other/kept', 'another namespace is not affected');
        const own = await store.list('session/abc');
        expect(own).toHaveLength(50);
        expect(own[0]?.key).toBe('session/abc/item-05');
        expect(await store.get('session/abc/item-04')).toBeUndefined();
        expect(await store.get('session/other/kept')).toBeDefined();
      });

      it('lists by prefix segment by segment, sorted by key', async () => {
        const store = await harness.open();
        await store.set('session/abc/b', '1');
        await store.set('session/abc/a', '2');
        await store.set('session/abcd/x', '3');
        await store.set('patrol/heartbeat/alerts', '4');
        expect((await store.list('session/abc')).map((e) => e.key)).toEqual(['session/abc/a', 'session/abc/b']);
        expect((await store.list('patrol')).map((e) => e.key)).toEqual(['patrol/heartbeat/alerts']);
        expect(await store.list()).toHaveLength(4);
      });

      it('reads across namespaces by full key', async () => {
        const store = await harness.open();
        await store.set('subagent/t1/research-index', 'outline');
        expect((await store.get('subagent/t1/research-index'))?.value).toBe('outline');
      });
    });

    describe('search', () => {
      it('ranks by text and filters by prefix, category and tags', async () => {
        const store = await harness.open();
        await store.set('session/abc/weather', 'Sunny in Lisbon, 24 degrees', { category: 'weather' });
        await store.set('patrol/heartbeat/alert', 'Disk almost full on db-2', { category: 'alerts', tags: ['urgent'] });
        await store.set('patrol/heartbeat/note', 'Disk cleanup finished on db-1', { category: 'alerts' });
        const disk = await store.search({ text: 'disk full' });
        expect(disk[0]?.entry.key).toBe('patrol/heartbeat/alert');
        expect((await store.search({ text: 'disk', prefix: 'session' })).map((r) => r.entry.key)).toEqual([]);
        expect((await store.search({ text: 'disk', tags: ['urgent'] })).map((r) => r.entry.key)).toEqual(['patrol/heartbeat/alert']);
        expect((await store.search({ text: 'lisbon', category: 'weather' })).map((r) => r.entry.key)).toEqual(['session/abc/weather']);
        expect(await store.search({ prefix: 'patrol', maxResults: 1 })).toHaveLength(1);
      });
    });

    describe('delete', () => {
      it('removes a key', async () => {
        const store = await harness.open();
        await store.set('session/abc/x', 'v');
        expect(await store.delete('session/abc/x')).toBe(true);
        expect(await store.delete('session/abc/x')).toBe(false);
        expect(await store.get('session/abc/x')).toBeUndefined();
      });
    });

    describe('invalid input', () => {
      for (const [label, value] of HOSTILE_PATHS) {
        it(`refuses a key with ${label} and writes nothing`, async () => {
          const store = await harness.open();
          await expect(store.set(value, 'v')).rejects.toMatchObject({ code: 'INVALID_KEY' });
          await expect(store.set(`session/abc/${value}`, 'v')).rejects.toMatchObject({ code: 'INVALID_KEY' });
          expect(await store.list()).toEqual([]);
        });
      }

      it('refuses a key without a namespace and name', async () => {
        const store = await harness.open();
        await expect(store.set('session/abc', 'v')).rejects.toMatchObject({ code: 'INVALID_KEY' });
        await expect(store.get('inbox')).rejects.toMatchObject({ code: 'INVALID_KEY' });
      });
    });

    describe('concurrency', () => {
      it('loses nothing when many sets run at once', async () => {
        const store = await harness.open();
        await Promise.all(
          Array.from({ length: 120 }, (_, i) => store.set(`${['session', 'patrol', 'subagent'][i % 3]}/n${i % 4}/k${i}`, `v${i}`)),
        );
        expect(await store.list()).toHaveLength(120);
      });
    });

    describe('user text is data (SPEC M2)', () => {
      it('keeps any key word, value, tag and category exactly, finds it, and refuses only what no store can hold', async () => {
        const store = await harness.open();
        const saved = [];
        for (const [i, value] of userTexts(24).entries()) {
          const word = NAME_WORDS[i % NAME_WORDS.length]!;
          const entry = await storedOrRefused(
            store.set(`session/${word}/${NAME_WORDS[(i + 3) % NAME_WORDS.length]!}-${i}`, value, { category: word, tags: [word] }),
          );
          if (entry) saved.push(entry);
          if (entry) expect(await store.get(entry.key)).toEqual(entry);
        }
        expect(saved.length).toBe(24);
        for (const word of NAME_WORDS) expect(Array.isArray(await store.search({ text: word, prefix: `session/${word}` }))).toBe(true);
        expect((await store.search({ text: 'constructor', prefix: 'session/constructor' })).length).toBeGreaterThan(0);
        for (const bad of UNSTORABLE_FRAGMENTS) {
          await expect(store.set('session/s1/bad', bad)).rejects.toMatchObject({ code: expect.stringMatching(/^INVALID_/) });
          await expect(store.set(`session/s1/${bad}`, 'fine')).rejects.toMatchObject({ code: expect.stringMatching(/^INVALID_/) });
        }
        const reread = options.persistent ? await harness.reopen(store) : store;
        for (const entry of saved) expect(await reread.get(entry.key)).toEqual(entry);
      });
    });

    describe('lifecycle', () => {
      it('refuses calls after close with STORE_CLOSED', async () => {
        const store = await harness.open();
        await store.close();
        await expect(store.list()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
      });

      if (options.persistent) {
        it('keeps live entries across a reopen and drops the ones that expired meanwhile', async () => {
          const store = await harness.open();
          const kept = await store.set('patrol/heartbeat/briefing', 'long lived', { ttlMs: 60 * MINUTE, tags: ['daily'] });
          await store.set('session/abc/scratch', 'short lived', { ttlMs: MINUTE });
          harness.clock.advance(2 * MINUTE);
          const reopened = await harness.reopen(store);
          expect(await reopened.get('patrol/heartbeat/briefing')).toEqual(kept);
          expect(await reopened.get('session/abc/scratch')).toBeUndefined();
          expect((await reopened.list()).map((e) => e.key)).toEqual(['patrol/heartbeat/briefing']);
        });
      }
    });
  });
}
