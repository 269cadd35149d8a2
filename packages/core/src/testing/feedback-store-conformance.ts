import { describe, expect, it } from 'vitest';
import type { IFeedbackStore } from '../interfaces/feedback-store';
import { ID_PATTERN } from '../ids/new-id';
import type { FeedbackDraft } from '../schemas/feedback-signal';
import { type ConformanceOptions, HOUR, MINUTE, type StoreFactory, useStoreHarness } from './conformance-context';
import { NAME_WORDS, storedOrRefused, UNSTORABLE_FRAGMENTS, userTexts } from './user-text-corpus';

/**
 * The behaviour every `IFeedbackStore` must show (SPEC M12), as a vitest suite. Call it from a
 * test file of your store:
 *
 * ```ts
 * describeFeedbackStoreConformance('MyFeedbackStore', ({ clock, scope }) => new MyFeedbackStore({ clock, scope }), { persistent: true });
 * ```
 */
export function describeFeedbackStoreConformance(
  name: string,
  factory: StoreFactory<IFeedbackStore>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} — IFeedbackStore conformance`, () => {
    const harness = useStoreHarness(factory, options);
    const iso = (offsetMs: number) => new Date(harness.clock.now().getTime() + offsetMs).toISOString();

    describe('record', () => {
      it('assigns an id and stamps the timestamp from the clock', async () => {
        const store = await harness.open();
        const now = harness.clock.now().getTime();
        const recorded = await store.record({ kind: 'correction', sessionId: 'session-1', text: 'No, the meeting is on Tuesday' });
        expect(recorded.id).toMatch(ID_PATTERN);
        expect(recorded).toMatchObject({ kind: 'correction', sessionId: 'session-1', text: 'No, the meeting is on Tuesday' });
        expect(recorded.rating).toBeUndefined();
        expect(new Date(recorded.timestamp).getTime()).toBe(now);
        expect(await store.list()).toEqual([recorded]);
      });

      it('accepts Dates for timestamp, since and until, and returns ISO strings', async () => {
        const store = await harness.open();
        const at = new Date(harness.clock.now().getTime() - HOUR);
        const recorded = await store.record({ kind: 'positive', sessionId: 's', text: 'thanks', timestamp: at });
        expect(recorded.timestamp).toBe(at.toISOString());
        expect(await store.list({ since: new Date(at.getTime() - MINUTE), until: new Date(at.getTime() + MINUTE) })).toEqual([recorded]);
        expect(await store.list({ since: new Date(at.getTime() + MINUTE) })).toEqual([]);
      });

      it('gives every signal its own id', async () => {
        const store = await harness.open();
        const ids = new Set<string>();
        for (let i = 0; i < 50; i++) ids.add((await store.record({ kind: 'positive', sessionId: 's', text: `thanks ${i}` })).id);
        expect(ids.size).toBe(50);
      });

      it('keeps a timestamp the caller gives', async () => {
        const store = await harness.open();
        const recorded = await store.record({
          kind: 'negative',
          sessionId: 's',
          text: 'Too verbose',
          timestamp: '2026-02-10T18:45:00.000Z',
        });
        expect(recorded.timestamp).toBe('2026-02-10T18:45:00.000Z');
        expect((await store.list())[0]?.timestamp).toBe('2026-02-10T18:45:00.000Z');
      });

      it('records a session summary with its rating', async () => {
        const store = await harness.open();
        const recorded = await store.record({ kind: 'session-summary', sessionId: 's', text: 'Fixed the build, slowly', rating: 'fair' });
        expect(recorded).toMatchObject({ kind: 'session-summary', rating: 'fair', text: 'Fixed the build, slowly' });
        expect(await store.list()).toEqual([recorded]);
      });

      it('hands out copies: changing a returned signal changes nothing stored', async () => {
        const store = await harness.open();
        const recorded = await store.record({ kind: 'correction', sessionId: 's', text: 'original' });
        recorded.text = 'mutated';
        const listed = await store.list();
        listed[0]!.kind = 'positive';
        expect(await store.list()).toMatchObject([{ kind: 'correction', text: 'original' }]);
      });
    });

    describe('invalid input', () => {
      it('refuses a session summary without a rating and writes nothing', async () => {
        const store = await harness.open();
        await expect(store.record({ kind: 'session-summary', sessionId: 's', text: 'It went fine' })).rejects.toMatchObject({
          code: 'INVALID_INPUT',
        });
        expect(await store.list()).toEqual([]);
      });

      it('refuses a rating on every other kind', async () => {
        const store = await harness.open();
        for (const kind of ['correction', 'positive', 'negative'] as const) {
          await expect(store.record({ kind, sessionId: 's', text: 'x', rating: 'good' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        }
        expect(await store.list()).toEqual([]);
      });

      it('refuses an unknown kind, a bad rating, an empty session id, a bad id and a bad timestamp', async () => {
        const store = await harness.open();
        const bad: unknown[] = [
          { kind: 'praise', sessionId: 's', text: 'x' },
          { kind: 'session-summary', sessionId: 's', text: 'x', rating: 'stellar' },
          { kind: 'correction', sessionId: '', text: 'x' },
          { kind: 'correction', sessionId: 's', text: 'x', id: '../../etc' },
          { kind: 'correction', sessionId: 's', text: 'x', timestamp: 'yesterday' },
        ];
        for (const draft of bad) {
          await expect(store.record(draft as FeedbackDraft)).rejects.toMatchObject({ code: expect.stringMatching(/^INVALID_/) });
        }
        await expect(store.record(bad[0] as FeedbackDraft)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        expect(await store.list()).toEqual([]);
      });

      it('refuses a bad range', async () => {
        const store = await harness.open();
        await expect(store.list({ since: 'last week' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(store.list({ until: 'tomorrow' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      });
    });

    describe('list', () => {
      it('lists oldest first whatever the order of recording', async () => {
        const store = await harness.open();
        await store.record({ kind: 'positive', sessionId: 's', text: 'third', timestamp: iso(2 * HOUR) });
        await store.record({ kind: 'positive', sessionId: 's', text: 'first', timestamp: iso(-HOUR) });
        await store.record({ kind: 'positive', sessionId: 's', text: 'second' });
        expect((await store.list()).map((f) => f.text)).toEqual(['first', 'second', 'third']);
      });

      it('filters by since (inclusive) and until (exclusive)', async () => {
        const store = await harness.open();
        for (const [text, offset] of [
          ['early', 0],
          ['edge', HOUR],
          ['middle', HOUR + MINUTE],
          ['late', 2 * HOUR],
        ] as const) {
          await store.record({ kind: 'correction', sessionId: 's', text, timestamp: iso(offset) });
        }
        expect((await store.list({ since: iso(HOUR) })).map((f) => f.text)).toEqual(['edge', 'middle', 'late']);
        expect((await store.list({ until: iso(HOUR) })).map((f) => f.text)).toEqual(['early']);
        expect((await store.list({ since: iso(HOUR), until: iso(2 * HOUR) })).map((f) => f.text)).toEqual(['edge', 'middle']);
      });

      it('filters by session and by kinds', async () => {
        const store = await harness.open();
        await store.record({ kind: 'correction', sessionId: 'alpha', text: 'a-correction' });
        harness.clock.advance(MINUTE);
        await store.record({ kind: 'positive', sessionId: 'beta', text: 'b-positive' });
        harness.clock.advance(MINUTE);
        await store.record({ kind: 'session-summary', sessionId: 'alpha', text: 'a-summary', rating: 'good' });
        harness.clock.advance(MINUTE);
        await store.record({ kind: 'negative', sessionId: 'beta', text: 'b-negative' });
        expect((await store.list({ sessionId: 'alpha' })).map((f) => f.text)).toEqual(['a-correction', 'a-summary']);
        expect((await store.list({ kinds: ['positive', 'negative'] })).map((f) => f.text)).toEqual(['b-positive', 'b-negative']);
        expect((await store.list({ kinds: ['session-summary'] })).map((f) => f.text)).toEqual(['a-summary']);
        expect((await store.list({ sessionId: 'beta', kinds: ['correction', 'negative'] })).map((f) => f.text)).toEqual(['b-negative']);
        expect(await store.list({ sessionId: 'gamma' })).toEqual([]);
      });

      it('with a limit, returns the most recent signals, still oldest first', async () => {
        const store = await harness.open();
        for (let i = 0; i < 6; i++) {
          await store.record({ kind: i % 2 === 0 ? 'positive' : 'negative', sessionId: 's', text: `signal ${i}` });
          harness.clock.advance(MINUTE);
        }
        expect((await store.list({ limit: 3 })).map((f) => f.text)).toEqual(['signal 3', 'signal 4', 'signal 5']);
        expect((await store.list({ limit: 2, kinds: ['positive'] })).map((f) => f.text)).toEqual(['signal 2', 'signal 4']);
        expect(await store.list({ limit: 100 })).toHaveLength(6);
      });
    });

    describe('concurrency', () => {
      it('loses nothing when many records run at once', async () => {
        const store = await harness.open();
        const recorded = await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            store.record({ kind: 'correction', sessionId: `session-${i % 4}`, text: `parallel ${i}`, timestamp: iso(i * 1000) }),
          ),
        );
        expect(new Set(recorded.map((f) => f.id)).size).toBe(200);
        const listed = await store.list();
        expect(listed.map((f) => f.text)).toEqual(Array.from({ length: 200 }, (_, i) => `parallel ${i}`));
        expect(await store.list({ sessionId: 'session-1' })).toHaveLength(50);
      });
    });

    describe('user text is data (SPEC M2)', () => {
      it('keeps any feedback text and session id exactly, and refuses only what no store can hold', async () => {
        const store = await harness.open();
        const recorded = [];
        for (const [i, text] of userTexts(24).entries()) {
          const signal = await storedOrRefused(store.record({ kind: 'correction', sessionId: NAME_WORDS[i % NAME_WORDS.length]!, text }));
          if (signal) recorded.push(signal);
        }
        expect(recorded.length).toBe(24);
        for (const bad of UNSTORABLE_FRAGMENTS) {
          await expect(store.record({ kind: 'negative', sessionId: 's', text: bad })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        }
        const byId = (signals: Array<{ id: string }>) => [...signals].sort((a, b) => (a.id < b.id ? -1 : 1));
        expect(byId(await store.list())).toEqual(byId(recorded));
        if (options.persistent) expect(byId(await (await harness.reopen(store)).list())).toEqual(byId(recorded));
      });
    });

    describe('lifecycle', () => {
      it('refuses calls after close with STORE_CLOSED', async () => {
        const store = await harness.open();
        await store.close();
        await expect(store.record({ kind: 'positive', sessionId: 's', text: 'x' })).rejects.toMatchObject({ code: 'STORE_CLOSED' });
        await expect(store.list()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
      });

      if (options.persistent) {
        it('finds every signal again after a reopen', async () => {
          const store = await harness.open();
          const correction = await store.record({ kind: 'correction', sessionId: 'alpha', text: 'Use metric units' });
          harness.clock.advance(MINUTE);
          const summary = await store.record({ kind: 'session-summary', sessionId: 'alpha', text: 'Good session', rating: 'excellent' });
          const reopened = await harness.reopen(store);
          expect(await reopened.list()).toEqual([correction, summary]);
          expect(await reopened.list({ kinds: ['session-summary'] })).toEqual([summary]);
          harness.clock.advance(MINUTE);
          const later = await reopened.record({ kind: 'positive', sessionId: 'beta', text: 'Nice' });
          expect(await reopened.list({ limit: 2 })).toEqual([summary, later]);
        });
      }
    });
  });
}
