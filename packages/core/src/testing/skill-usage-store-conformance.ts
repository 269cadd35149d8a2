import { describe, expect, it } from 'vitest';
import type { ISkillUsageStore } from '../interfaces/skill-store';
import type { SkillUsageDraft } from '../schemas/skill';
import { type ConformanceOptions, HOSTILE_PATHS, HOUR, MINUTE, type StoreFactory, useStoreHarness } from './conformance-context';

/**
 * The behaviour every `ISkillUsageStore` must show (SPEC M13), as a vitest suite. Call it from a
 * test file of your store:
 *
 * ```ts
 * describeSkillUsageStoreConformance('MyUsageStore', ({ clock, scope }) => new MyUsageStore({ clock, scope }), { persistent: true });
 * ```
 */
export function describeSkillUsageStoreConformance(
  name: string,
  factory: StoreFactory<ISkillUsageStore>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} — ISkillUsageStore conformance`, () => {
    const harness = useStoreHarness(factory, options);
    const iso = (offsetMs: number) => new Date(harness.clock.now().getTime() + offsetMs).toISOString();

    describe('record', () => {
      it('stamps the timestamp from the clock when it is left out', async () => {
        const store = await harness.open();
        const now = harness.clock.now().getTime();
        const recorded = await store.record({ skill: 'mcp/email', sessionId: 'session-1' });
        expect(recorded).toMatchObject({ skill: 'mcp/email', sessionId: 'session-1' });
        expect(new Date(recorded.timestamp).getTime()).toBe(now);
        expect(await store.list()).toEqual([recorded]);
      });

      it('keeps a timestamp the caller gives', async () => {
        const store = await harness.open();
        const recorded = await store.record({ skill: 'git/rebase', sessionId: 'session-2', timestamp: '2026-01-15T09:30:00.000Z' });
        expect(recorded).toEqual({ skill: 'git/rebase', sessionId: 'session-2', timestamp: '2026-01-15T09:30:00.000Z' });
        expect(await store.list()).toEqual([recorded]);
      });

      it('keeps every use, even the same skill in the same session twice', async () => {
        const store = await harness.open();
        await store.record({ skill: 'mcp/email', sessionId: 's' });
        await store.record({ skill: 'mcp/email', sessionId: 's' });
        expect(await store.list()).toHaveLength(2);
      });

      it('hands out copies: changing a returned usage changes nothing stored', async () => {
        const store = await harness.open();
        const recorded = await store.record({ skill: 'mcp/email', sessionId: 's' });
        recorded.skill = 'mutated';
        const listed = await store.list();
        listed[0]!.sessionId = 'mutated';
        expect(await store.list()).toMatchObject([{ skill: 'mcp/email', sessionId: 's' }]);
      });
    });

    describe('list', () => {
      it('lists oldest first whatever the order of recording', async () => {
        const store = await harness.open();
        await store.record({ skill: 'c', sessionId: 's', timestamp: iso(2 * HOUR) });
        await store.record({ skill: 'a', sessionId: 's', timestamp: iso(-HOUR) });
        await store.record({ skill: 'b', sessionId: 's' });
        expect((await store.list()).map((u) => u.skill)).toEqual(['a', 'b', 'c']);
      });

      it('filters by since (inclusive) and until (exclusive)', async () => {
        const store = await harness.open();
        for (const [skill, offset] of [
          ['early', 0],
          ['edge', HOUR],
          ['middle', HOUR + MINUTE],
          ['late', 2 * HOUR],
        ] as const) {
          await store.record({ skill, sessionId: 's', timestamp: iso(offset) });
        }
        expect((await store.list({ since: iso(HOUR) })).map((u) => u.skill)).toEqual(['edge', 'middle', 'late']);
        expect((await store.list({ until: iso(HOUR) })).map((u) => u.skill)).toEqual(['early']);
        expect((await store.list({ since: iso(HOUR), until: iso(2 * HOUR) })).map((u) => u.skill)).toEqual(['edge', 'middle']);
      });

      it('filters by skill and by session', async () => {
        const store = await harness.open();
        await store.record({ skill: 'mcp/email', sessionId: 'alpha' });
        harness.clock.advance(MINUTE);
        await store.record({ skill: 'mcp/email/attachments', sessionId: 'beta' });
        harness.clock.advance(MINUTE);
        await store.record({ skill: 'git/rebase', sessionId: 'alpha' });
        harness.clock.advance(MINUTE);
        await store.record({ skill: 'mcp/email', sessionId: 'beta' });
        expect((await store.list({ skill: 'mcp/email' })).map((u) => u.sessionId)).toEqual(['alpha', 'beta']);
        expect((await store.list({ sessionId: 'alpha' })).map((u) => u.skill)).toEqual(['mcp/email', 'git/rebase']);
        expect((await store.list({ skill: 'mcp/email', sessionId: 'beta' })).map((u) => u.skill)).toEqual(['mcp/email']);
        expect(await store.list({ skill: 'unused/skill' })).toEqual([]);
      });
    });

    describe('invalid input', () => {
      for (const [label, value] of HOSTILE_PATHS) {
        it(`refuses a skill name with ${label} and writes nothing`, async () => {
          const store = await harness.open();
          await expect(store.record({ skill: value, sessionId: 's' })).rejects.toMatchObject({ code: 'INVALID_NAME' });
          expect(await store.list()).toEqual([]);
        });
      }

      it('refuses an empty session id, a bad timestamp and a bad range', async () => {
        const store = await harness.open();
        await expect(store.record({ skill: 'mcp/email', sessionId: '' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(store.record({ skill: 'mcp/email', sessionId: 's', timestamp: 'yesterday' })).rejects.toMatchObject({
          code: 'INVALID_INPUT',
        });
        await expect(store.record({ skill: 'mcp/email' } as SkillUsageDraft)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(store.list({ since: 'last week' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(store.list({ until: '2026-13-45' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        expect(await store.list()).toEqual([]);
      });
    });

    describe('concurrency', () => {
      it('loses nothing when many records run at once', async () => {
        const store = await harness.open();
        await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            store.record({ skill: `bulk/skill-${i % 10}`, sessionId: `session-${i}`, timestamp: iso(i * 1000) }),
          ),
        );
        const listed = await store.list();
        expect(listed).toHaveLength(200);
        expect(listed.map((u) => u.sessionId)).toEqual(Array.from({ length: 200 }, (_, i) => `session-${i}`));
        expect(await store.list({ skill: 'bulk/skill-3' })).toHaveLength(20);
      });
    });

    describe('lifecycle', () => {
      it('refuses calls after close with STORE_CLOSED', async () => {
        const store = await harness.open();
        await store.close();
        await expect(store.record({ skill: 'mcp/email', sessionId: 's' })).rejects.toMatchObject({ code: 'STORE_CLOSED' });
        await expect(store.list()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
      });

      if (options.persistent) {
        it('finds every use again after a reopen', async () => {
          const store = await harness.open();
          const first = await store.record({ skill: 'mcp/email', sessionId: 'alpha' });
          harness.clock.advance(MINUTE);
          const second = await store.record({ skill: 'git/rebase', sessionId: 'beta' });
          const reopened = await harness.reopen(store);
          expect(await reopened.list()).toEqual([first, second]);
          expect(await reopened.list({ skill: 'git/rebase' })).toEqual([second]);
          harness.clock.advance(MINUTE);
          const third = await reopened.record({ skill: 'mcp/email', sessionId: 'gamma' });
          expect(await reopened.list({ skill: 'mcp/email' })).toEqual([first, third]);
        });
      }
    });
  });
}
