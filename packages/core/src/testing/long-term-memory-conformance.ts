// Over 400 lines on purpose: the memory store's conformance cases read as one checklist that a store
// author runs and reads top to bottom; the shared harness and corpora live in their own files.
import { describe, expect, it } from 'vitest';
import type { ILongTermMemory } from '../interfaces/long-term-memory';
import { ID_PATTERN } from '../ids/new-id';
import { describeChangeFeedConformance } from './change-feed-conformance';
import { describeTiersConformance } from './tiers-conformance';
import { type ConformanceOptions, DAY, HOSTILE_PATHS, type StoreFactory, useStoreHarness } from './conformance-context';
import { NAME_WORDS, storedOrRefused, UNSTORABLE_FRAGMENTS, userTexts } from './user-text-corpus';

/**
 * The behaviour every `ILongTermMemory` must show, as a vitest suite. Call it from a test file
 * of your store:
 *
 * ```ts
 * describeLongTermMemoryConformance('MyStore', ({ clock, scope }) => new MyStore({ clock, scope }), { persistent: true });
 * ```
 */
export function describeLongTermMemoryConformance(
  name: string,
  factory: StoreFactory<ILongTermMemory>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} — ILongTermMemory conformance`, () => {
    const harness = useStoreHarness(factory, options);

    describe('save and get', () => {
      it('assigns an id, times and defaults to a new entry', async () => {
        const store = await harness.open();
        const now = harness.clock.now().toISOString();
        const saved = await store.save({ content: 'The user lives in Lisbon' });
        expect(saved.id).toMatch(ID_PATTERN);
        expect(saved).toMatchObject({
          content: 'The user lives in Lisbon',
          category: 'general',
          tags: [],
          metadata: {},
          reinforcementCount: 1,
          importance: 0.5,
        });
        expect(new Date(saved.createdAt).getTime()).toBe(new Date(now).getTime());
        expect(new Date(saved.lastSeenAt).getTime()).toBe(new Date(now).getTime());
        expect(await store.get(saved.id)).toEqual(saved);
      });

      it('accepts a Date or an ISO string for createdAt and lastSeenAt, and returns ISO strings', async () => {
        const store = await harness.open();
        const saved = await store.save({
          content: 'Met Ana in Porto',
          createdAt: new Date('2026-03-01T10:00:00.000Z'),
          lastSeenAt: '2026-03-02T10:00:00.000Z',
        });
        expect(saved.createdAt).toBe('2026-03-01T10:00:00.000Z');
        expect(saved.lastSeenAt).toBe('2026-03-02T10:00:00.000Z');
        expect((await store.get(saved.id))?.createdAt).toBe('2026-03-01T10:00:00.000Z');
        await expect(store.save({ content: 'x', createdAt: new Date('not a date') })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      });

      it('gives every new entry its own id', async () => {
        const store = await harness.open();
        const ids = new Set<string>();
        for (let i = 0; i < 50; i++) ids.add((await store.save({ content: `fact number ${i}` })).id);
        expect(ids.size).toBe(50);
      });

      it('returns undefined for an unknown id and INVALID_ID for a malformed one', async () => {
        const store = await harness.open();
        expect(await store.get('0123456789ab')).toBeUndefined();
        await expect(store.get('../etc/passwd')).rejects.toMatchObject({ code: 'INVALID_ID' });
        await expect(store.get('ABCDEF123456')).rejects.toMatchObject({ code: 'INVALID_ID' });
      });

      it('replaces an entry but keeps its createdAt, lastSeenAt, reinforcement and importance', async () => {
        const store = await harness.open();
        const first = await store.save({ content: 'Prefers tea', category: 'user-preferences/drinks', importance: 0.9 });
        harness.clock.advance(DAY);
        const updated = await store.save({ id: first.id, content: 'Prefers green tea', tags: ['tea'] });
        expect(updated).toMatchObject({
          id: first.id,
          content: 'Prefers green tea',
          category: 'general',
          tags: ['tea'],
          createdAt: first.createdAt,
          lastSeenAt: first.lastSeenAt,
          reinforcementCount: 1,
          importance: 0.9,
        });
        expect(new Date(updated.updatedAt).getTime()).toBeGreaterThan(new Date(first.updatedAt).getTime());
        expect(await store.get(first.id)).toEqual(updated);
      });

      it('moves an entry when its category changes', async () => {
        const store = await harness.open();
        const saved = await store.save({ content: 'Deploys go through staging first', category: 'project-context/ops' });
        await store.save({ ...saved, category: 'project-context/release' });
        expect(await store.list({ category: 'project-context/ops' })).toEqual([]);
        expect((await store.list({ category: 'project-context/release' })).map((e) => e.id)).toEqual([saved.id]);
        expect(await store.listCategories()).toEqual([{ category: 'project-context/release', count: 1 }]);
      });

      it('keeps imported temporal fields, importance and metadata as given', async () => {
        const store = await harness.open();
        const imported = await store.save({
          id: 'a1b2c3d4e5f6',
          content: 'Met Ana at the Porto conference',
          category: 'episodes',
          tags: ['people', 'conference'],
          createdAt: '2025-05-01T08:00:00.000Z',
          lastSeenAt: '2025-09-10T18:30:00.000Z',
          reinforcementCount: 4,
          importance: 0.7,
          metadata: { 'subject.point': '2025-05-01' },
        });
        expect(imported).toMatchObject({
          id: 'a1b2c3d4e5f6',
          createdAt: '2025-05-01T08:00:00.000Z',
          lastSeenAt: '2025-09-10T18:30:00.000Z',
          reinforcementCount: 4,
          importance: 0.7,
          metadata: { 'subject.point': '2025-05-01' },
        });
        expect(await store.get('a1b2c3d4e5f6')).toEqual(imported);
      });

      it('keeps importanceAt as given, stamps a changed importance with now, and keeps the pair otherwise', async () => {
        const store = await harness.open();
        const imported = await store.save({
          id: 'b1b2c3d4e5f6',
          content: 'Prefers window seats',
          lastSeenAt: '2025-09-10T18:30:00.000Z',
          importance: 0.6,
          importanceAt: '2025-12-01T00:00:00.000Z',
        });
        expect(imported.importanceAt).toBe('2025-12-01T00:00:00.000Z');
        expect(await store.get(imported.id)).toEqual(imported);
        const reworded = await store.save({ ...imported, content: 'Prefers aisle seats' });
        expect(reworded).toMatchObject({ importance: 0.6, importanceAt: '2025-12-01T00:00:00.000Z' });
        harness.clock.advance(DAY);
        const raised = await store.save({ id: imported.id, content: 'Prefers aisle seats', importance: 0.9 });
        expect(raised).toMatchObject({ importance: 0.9, importanceAt: harness.clock.now().toISOString() });
        expect(await store.get(imported.id)).toEqual(raised);
      });

      it('hands out copies: changing a returned entry changes nothing stored', async () => {
        const store = await harness.open();
        const saved = await store.save({ content: 'Uses vim', tags: ['editor'], metadata: { source: 'chat' } });
        saved.tags.push('mutated');
        saved.content = 'mutated';
        saved.metadata.source = 'mutated';
        const listed = (await store.list())[0]!;
        listed.tags.push('mutated');
        listed.metadata.source = 'mutated';
        const found = (await store.search({ text: 'vim' }))[0]!.entry;
        found.tags.push('mutated');
        found.metadata.extra = 'mutated';
        const again = await store.get(saved.id);
        expect(again?.content).toBe('Uses vim');
        expect(again?.tags).toEqual(['editor']);
        expect(again?.metadata).toEqual({ source: 'chat' });
      });
    });

    describe('delete', () => {
      it('removes an entry from get, list, search and categories', async () => {
        const store = await harness.open();
        const doomed = await store.save({ content: 'Temporary parking spot B12', category: 'errands' });
        const kept = await store.save({ content: 'Home parking spot A3', category: 'home' });
        expect(await store.delete(doomed.id)).toBe(true);
        expect(await store.delete(doomed.id)).toBe(false);
        expect(await store.get(doomed.id)).toBeUndefined();
        expect((await store.list()).map((e) => e.id)).toEqual([kept.id]);
        expect((await store.search({ text: 'parking spot' })).map((r) => r.entry.id)).toEqual([kept.id]);
        expect(await store.listCategories()).toEqual([{ category: 'home', count: 1 }]);
      });

      it('refuses a malformed id', async () => {
        const store = await harness.open();
        await expect(store.delete('nope')).rejects.toMatchObject({ code: 'INVALID_ID' });
      });
    });

    describe('optimistic concurrency', () => {
      it('saves only when ifUpdatedAt matches the stored entry', async () => {
        const store = await harness.open();
        const saved = await store.save({ content: 'Version one' });
        harness.clock.advance(1000);
        const second = await store.save({ id: saved.id, content: 'Version two' }, { ifUpdatedAt: saved.updatedAt });
        await expect(store.save({ id: saved.id, content: 'Stale write' }, { ifUpdatedAt: saved.updatedAt })).rejects.toMatchObject({
          code: 'CONFLICT',
        });
        expect((await store.get(saved.id))?.content).toBe('Version two');
        await expect(store.delete(saved.id, { ifUpdatedAt: saved.updatedAt })).rejects.toMatchObject({ code: 'CONFLICT' });
        expect(await store.delete(saved.id, { ifUpdatedAt: second.updatedAt })).toBe(true);
      });

      it('treats ifUpdatedAt: null as "only if new"', async () => {
        const store = await harness.open();
        const created = await store.save({ id: '00000000beef', content: 'First' }, { ifUpdatedAt: null });
        expect(created.id).toBe('00000000beef');
        await expect(store.save({ id: '00000000beef', content: 'Second' }, { ifUpdatedAt: null })).rejects.toMatchObject({
          code: 'CONFLICT',
        });
      });

      it('moves updatedAt forward on every write, even within one clock tick', async () => {
        const store = await harness.open();
        const a = await store.save({ content: 'tick' });
        const b = await store.save({ id: a.id, content: 'tock' });
        expect(new Date(b.updatedAt).getTime()).toBeGreaterThan(new Date(a.updatedAt).getTime());
      });
    });

    describe('search', () => {
      it('ranks the entry that matches the query first', async () => {
        const store = await harness.open();
        await store.save({ content: 'The office coffee machine is on the third floor' });
        const target = await store.save({ content: 'The user is allergic to peanuts and shellfish', category: 'health' });
        await store.save({ content: 'Lunch meetings happen on Fridays' });
        const results = await store.search({ text: 'peanuts allergy' });
        expect(results[0]?.entry.id).toBe(target.id);
        for (let i = 1; i < results.length; i++) expect(results[i - 1]!.score).toBeGreaterThanOrEqual(results[i]!.score);
      });

      it('matches tags and the words of the category', async () => {
        const store = await harness.open();
        const byCategory = await store.save({ content: 'Chicago, UTC-6', category: 'user-preferences/timezone' });
        const byTag = await store.save({ content: 'Prefers bullet points', tags: ['formatting'] });
        expect((await store.search({ text: 'timezone' })).map((r) => r.entry.id)).toContain(byCategory.id);
        expect((await store.search({ text: 'formatting' })).map((r) => r.entry.id)).toContain(byTag.id);
      });

      it('finds an entry by its new content after an update, not by its old one', async () => {
        const store = await harness.open();
        const saved = await store.save({ content: 'Favourite colour is crimson' });
        await store.save({ id: saved.id, content: 'Favourite colour is turquoise' });
        expect(await store.search({ text: 'crimson' })).toEqual([]);
        expect((await store.search({ text: 'turquoise' })).map((r) => r.entry.id)).toEqual([saved.id]);
      });

      it('filters by category prefix segment by segment', async () => {
        const store = await harness.open();
        const a = await store.save({ content: 'Billing runs on Stripe', category: 'project-context/billing' });
        const b = await store.save({ content: 'Billing emails go out monthly', category: 'project-context' });
        await store.save({ content: 'Billing address is in Lisbon', category: 'project-contextual' });
        await store.save({ content: 'Billing questions go to Sam', category: 'general' });
        const ids = (await store.search({ text: 'billing', category: 'project-context' })).map((r) => r.entry.id);
        expect(ids.sort()).toEqual([a.id, b.id].sort());
        const nested = (await store.search({ text: 'billing', category: 'project-context/billing' })).map((r) => r.entry.id);
        expect(nested).toEqual([a.id]);
      });

      it('keeps only entries that carry every requested tag', async () => {
        const store = await harness.open();
        const both = await store.save({ content: 'Release checklist lives in the wiki', tags: ['release', 'docs'] });
        await store.save({ content: 'Release train leaves on Tuesdays', tags: ['release'] });
        const ids = (await store.search({ text: 'release', tags: ['release', 'docs'] })).map((r) => r.entry.id);
        expect(ids).toEqual([both.id]);
      });

      it('returns at most maxResults, 8 by default', async () => {
        const store = await harness.open();
        for (let i = 0; i < 12; i++) await store.save({ content: `Server ${i} runs nginx` });
        expect(await store.search({ text: 'nginx' })).toHaveLength(8);
        expect(await store.search({ text: 'nginx', maxResults: 3 })).toHaveLength(3);
      });

      it('browses by importance, then most recently seen, without a query', async () => {
        const store = await harness.open();
        const low = await store.save({ content: 'low', importance: 0.2, lastSeenAt: '2026-02-01T00:00:00.000Z' });
        const highOld = await store.save({ content: 'high old', importance: 0.9, lastSeenAt: '2026-01-01T00:00:00.000Z' });
        const highNew = await store.save({ content: 'high new', importance: 0.9, lastSeenAt: '2026-02-15T00:00:00.000Z' });
        const ids = (await store.search({ maxResults: 5 })).map((r) => r.entry.id);
        expect(ids).toEqual([highNew.id, highOld.id, low.id]);
      });

      it('browses by importance decayed to now (SPEC D7), and scores by it', async () => {
        const store = await harness.open();
        const now = harness.clock.now().getTime();
        const daysAgo = (days: number) => new Date(now - days * DAY).toISOString();
        // 0.9 unseen for 30 + 90 days has faded to 0.225; 0.5 seen last week has not faded.
        const faded = await store.save({ content: 'faded', importance: 0.9, lastSeenAt: daysAgo(120) });
        const fresh = await store.save({ content: 'fresh', importance: 0.5, lastSeenAt: daysAgo(7) });
        const results = await store.search({ maxResults: 5 });
        expect(results.map((r) => r.entry.id)).toEqual([fresh.id, faded.id]);
        expect(results[1]!.score).toBeCloseTo(0.225, 6);
        expect(results[1]!.entry.importance).toBe(0.9);
      });

      it('returns nothing when nothing matches', async () => {
        const store = await harness.open();
        await store.save({ content: 'The cat is called Luna' });
        expect(await store.search({ text: 'xylophone' })).toEqual([]);
      });

      it('refuses a hostile category filter and a bad maxResults', async () => {
        const store = await harness.open();
        await expect(store.search({ text: 'x', category: '../secrets' })).rejects.toMatchObject({ code: 'INVALID_CATEGORY' });
        await expect(store.search({ text: 'x', maxResults: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      });
    });

    describe('validity over time (SPEC B9)', () => {
      const at = (iso: string) => new Date(iso).getTime();

      it('keeps validFrom, validTo and supersededBy as given, through a replacing draft that leaves them out; null removes them', async () => {
        const store = await harness.open();
        const porto = await store.save({ content: 'The user lives in Porto', validFrom: new Date('2025-06-01T00:00:00.000Z') });
        const lyon = await store.save({
          content: 'The user lives in Lyon',
          validFrom: '2023-01-01T00:00:00.000Z',
          validTo: '2025-06-01T00:00:00.000Z',
          supersededBy: porto.id,
        });
        expect(porto.validFrom).toBe('2025-06-01T00:00:00.000Z');
        expect(lyon).toMatchObject({ validFrom: '2023-01-01T00:00:00.000Z', validTo: '2025-06-01T00:00:00.000Z', supersededBy: porto.id });
        expect(await store.get(lyon.id)).toEqual(lyon);
        const reworded = await store.save({ id: lyon.id, content: 'The user lived in Lyon' });
        expect(reworded).toMatchObject({ validTo: '2025-06-01T00:00:00.000Z', supersededBy: porto.id });
        const restored = await store.save({ id: lyon.id, content: 'The user lives in Lyon', validTo: null, supersededBy: null });
        expect(restored.validTo).toBeUndefined();
        expect(restored.supersededBy).toBeUndefined();
        expect(restored.validFrom).toBe('2023-01-01T00:00:00.000Z');
        expect(await store.get(lyon.id)).toEqual(restored);
        const plain = await store.save({ content: 'The user has a cat' });
        expect(Object.keys(plain)).not.toContain('validTo');
      });

      it('refuses a validTo before validFrom, a supersededBy without validTo and an entry superseding itself, writing nothing', async () => {
        const store = await harness.open();
        await expect(
          store.save({ content: 'x', validFrom: '2026-02-01T00:00:00.000Z', validTo: '2026-01-01T00:00:00.000Z' }),
        ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(store.save({ content: 'x', supersededBy: 'a1b2c3d4e5f6' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(
          store.save({ id: 'a1b2c3d4e5f6', content: 'x', validTo: '2026-01-01T00:00:00.000Z', supersededBy: 'a1b2c3d4e5f6' }),
        ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(store.save({ content: 'x', validTo: 'next week' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        expect(await store.list()).toEqual([]);
      });

      it('leaves superseded, ended and not-yet-valid entries out of current recall, but keeps them for get and list', async () => {
        const store = await harness.open();
        const now = harness.clock.now().getTime();
        const iso = (offsetDays: number) => new Date(now + offsetDays * DAY).toISOString();
        const porto = await store.save({ content: 'The user lives in Porto', validFrom: iso(-30) });
        const lyon = await store.save({
          content: 'The user lives in Lyon',
          validTo: iso(-30),
          supersededBy: porto.id,
          createdAt: iso(-400),
        });
        const berlin = await store.save({ content: 'The user lives in Berlin from next month', validFrom: iso(20) });
        const plain = await store.save({ content: 'The user lives near the river' });
        const recalled = (await store.search({ text: 'user lives' })).map((r) => r.entry.id);
        expect(recalled.sort()).toEqual([porto.id, plain.id].sort());
        expect((await store.search({ maxResults: 10 })).map((r) => r.entry.id).sort()).toEqual([porto.id, plain.id].sort());
        expect((await store.search({ text: 'lyon' })).map((r) => r.entry.id)).toEqual([]);
        expect(await store.get(lyon.id)).toMatchObject({ supersededBy: porto.id });
        expect((await store.list()).map((e) => e.id).sort()).toEqual([porto.id, lyon.id, berlin.id, plain.id].sort());
        expect(await store.listCategories()).toEqual([{ category: 'general', count: 4 }]);
      });

      it('answers as of a past date: the fact that held then, nothing noted later', async () => {
        const store = await harness.open();
        const lyon = await store.save({
          content: 'The user works at Acme in Lyon',
          createdAt: '2025-01-10T00:00:00.000Z',
          validTo: '2025-09-01T00:00:00.000Z',
          supersededBy: 'b1b2c3d4e5f6',
        });
        const porto = await store.save({
          id: 'b1b2c3d4e5f6',
          content: 'The user works at Globex in Porto',
          createdAt: '2025-09-03T00:00:00.000Z',
          validFrom: '2025-09-01T00:00:00.000Z',
        });
        const later = await store.save({ content: 'The user works remotely on Fridays', createdAt: '2025-12-01T00:00:00.000Z' });
        const ids = async (query: Parameters<typeof store.search>[0]) => (await store.search(query)).map((r) => r.entry.id).sort();
        expect(await ids({ text: 'user works', asOf: '2025-05-01T00:00:00.000Z' })).toEqual([lyon.id]);
        expect(await ids({ text: 'user works', asOf: new Date('2025-10-01T00:00:00.000Z') })).toEqual([porto.id]);
        // The instant of the change belongs to the successor (validTo is exclusive).
        expect(await ids({ text: 'user works', asOf: '2025-09-01T00:00:00.000Z' })).toEqual([porto.id]);
        expect(await ids({ text: 'user works', asOf: '2026-01-01T00:00:00.000Z' })).toEqual([porto.id, later.id].sort());
        expect(await ids({ text: 'user works' })).toEqual([porto.id, later.id].sort());
        expect(await ids({ asOf: '2025-05-01T00:00:00.000Z', maxResults: 10 })).toEqual([lyon.id]);
        expect(await ids({ text: 'user works', asOf: '2024-12-31T00:00:00.000Z' })).toEqual([]);
        expect(await ids({ text: 'user works', asOf: '2025-05-01T00:00:00.000Z', category: 'projects' })).toEqual([]);
        await expect(store.search({ text: 'x', asOf: 'last spring' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        expect(at(porto.validFrom!)).toBe(at(lyon.validTo!));
      });

      it('drops a fact from current recall once the clock passes its validTo', async () => {
        const store = await harness.open();
        const trip = await store.save({
          content: 'The user is travelling in Japan',
          validTo: new Date(harness.clock.now().getTime() + 3 * DAY),
        });
        expect((await store.search({ text: 'japan' })).map((r) => r.entry.id)).toEqual([trip.id]);
        harness.clock.advance(3 * DAY);
        expect(await store.search({ text: 'japan' })).toEqual([]);
        expect((await store.search({ text: 'japan', asOf: new Date(harness.clock.now().getTime() - DAY) })).map((r) => r.entry.id)).toEqual(
          [trip.id],
        );
      });

      if (options.persistent) {
        it('keeps validity across a reopen, and current recall still leaves superseded entries out', async () => {
          const store = await harness.open();
          const porto = await store.save({ content: 'Office badge number is 4411', validFrom: '2026-01-01T00:00:00.000Z' });
          const old = await store.save({
            content: 'Office badge number is 1203',
            validTo: '2026-01-01T00:00:00.000Z',
            supersededBy: porto.id,
            createdAt: '2025-01-01T00:00:00.000Z',
          });
          const reopened = await harness.reopen(store);
          expect(await reopened.get(old.id)).toEqual(old);
          expect((await reopened.search({ text: 'badge number' })).map((r) => r.entry.id)).toEqual([porto.id]);
          expect((await reopened.search({ text: 'badge number', asOf: '2025-06-01T00:00:00.000Z' })).map((r) => r.entry.id)).toEqual([
            old.id,
          ]);
        });
      }
    });

    describe('lineage (SPEC B10)', () => {
      const merged = {
        origin: { kind: 'merge' as const, at: '2026-02-01T00:00:00.000Z', runId: 'a0a0a0a0a0a0', pass: 'memory-consolidation' },
        ancestors: [
          {
            id: 'b1b1b1b1b1b1',
            relation: 'merged' as const,
            into: 'c2c2c2c2c2c2',
            at: '2026-02-01T00:00:00.000Z',
            runId: 'a0a0a0a0a0a0',
            excerpt: 'Likes tea',
            fingerprint: '0badf00d',
            origin: 'tool' as const,
          },
          {
            id: 'd3d3d3d3d3d3',
            relation: 'superseded' as const,
            into: 'b1b1b1b1b1b1',
            at: '2026-01-01T00:00:00.000Z',
            excerpt: 'Likes coffee',
            fingerprint: '12345678',
          },
        ],
        folded: 3,
      };

      it('keeps a lineage as given, through a replacing draft that leaves it out; null removes it; an origin without `at` is dated at the write', async () => {
        const store = await harness.open();
        const entry = await store.save({ id: 'c2c2c2c2c2c2', content: 'Likes tea in the morning', lineage: merged });
        expect(entry.lineage).toEqual(merged);
        expect(await store.get(entry.id)).toEqual(entry);
        const reworded = await store.save({ id: entry.id, content: 'Likes green tea in the morning' });
        expect(reworded.lineage).toEqual(merged);
        const cleared = await store.save({ id: entry.id, content: 'Likes green tea in the morning', lineage: null });
        expect(cleared.lineage).toBeUndefined();
        expect(Object.keys((await store.get(entry.id))!)).not.toContain('lineage');
        const now = harness.clock.now().toISOString();
        const told = await store.save({
          content: 'Uses vim',
          lineage: { origin: { kind: 'tool', tool: 'save_memory', sessionId: 'chat-1' } },
        });
        expect(told.lineage).toEqual({ origin: { kind: 'tool', tool: 'save_memory', sessionId: 'chat-1', at: told.updatedAt } });
        expect(Date.parse(told.lineage!.origin!.at)).toBeGreaterThanOrEqual(Date.parse(now));
        const unknown = await store.save({ content: 'Has a dog' });
        expect(Object.keys(unknown)).not.toContain('lineage');
      });

      it('keeps a handed-out lineage apart from the stored one', async () => {
        const store = await harness.open();
        const entry = await store.save({ content: 'Likes tea', lineage: merged });
        entry.lineage!.ancestors![0]!.excerpt = 'changed';
        const fetched = (await store.get(entry.id))!;
        expect(fetched.lineage).toEqual(merged);
        fetched.lineage!.origin!.kind = 'api';
        expect((await store.get(entry.id))!.lineage).toEqual(merged);
      });

      it('refuses a malformed lineage, writing nothing', async () => {
        const store = await harness.open();
        const bad = [
          { origin: { kind: 'telepathy' } },
          { ancestors: [{ ...merged.ancestors[0], id: 'not-an-id' }] },
          { ancestors: [{ ...merged.ancestors[0], fingerprint: 'xyz' }] },
          { ancestors: Array.from({ length: 33 }, (_, i) => ({ ...merged.ancestors[0], id: i.toString(16).padStart(12, '0') })) },
          { origin: { kind: 'session', turns: [{ sessionId: 's', fromSeq: 5, toSeq: 2 }] } },
        ];
        for (const lineage of bad) {
          await expect(store.save({ content: 'x', lineage: lineage as never })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        }
        expect(await store.list()).toEqual([]);
      });

      if (options.persistent) {
        it('keeps lineage across a reopen', async () => {
          const store = await harness.open();
          const entry = await store.save({ content: 'Likes tea in the morning', lineage: merged });
          const plain = await store.save({ content: 'Has a dog' });
          const reopened = await harness.reopen(store);
          expect(await reopened.get(entry.id)).toEqual(entry);
          expect(await reopened.get(plain.id)).toEqual(plain);
        });
      }
    });

    describe('passages (SPEC M3, B10)', () => {
      const harbour = 'Ana moved to Porto for a job at the harbour office';
      const merge = (passages: string[]) => ({ origin: { kind: 'merge' as const, at: '2026-02-01T00:00:00.000Z' }, passages });

      it('ranks a merged entry by the best of its text and its passages, as its source would rank, and returns it once', async () => {
        const store = await harness.open();
        const source = await store.save({ content: harbour });
        const merged = await store.save({
          content: 'Ana lives in Porto and likes green tea',
          lineage: merge([harbour, 'Ana drinks green tea every morning']),
        });
        await store.save({ content: 'Bruno works at the bakery' });
        const hits = await store.search({ text: 'harbour office job', maxResults: 5 });
        expect(hits.map((hit) => hit.entry.id).sort()).toEqual([source.id, merged.id].sort());
        const score = (id: string) => hits.find((hit) => hit.entry.id === id)!.score;
        // The passage is scored as the source was, not added to the merge's own score.
        expect(score(merged.id)).toBeCloseTo(score(source.id), 9);
        expect(hits.find((hit) => hit.entry.id === merged.id)!.entry).toEqual(merged);
        expect((await store.search({ text: 'morning', maxResults: 5 })).map((hit) => hit.entry.id)).toEqual([merged.id]);
        expect(await store.search({ text: 'porto', maxResults: 1 })).toHaveLength(1);
      });

      it('follows the passages a save gives: replaced, removed with the lineage, deleted with the entry', async () => {
        const store = await harness.open();
        const merged = await store.save({ content: 'Ana lives in Porto', lineage: merge([harbour]) });
        expect((await store.search({ text: 'harbour' })).map((hit) => hit.entry.id)).toEqual([merged.id]);
        await store.save({ id: merged.id, content: 'Ana lives in Porto', lineage: merge(['Ana rows on the river on Sundays']) });
        expect(await store.search({ text: 'harbour' })).toEqual([]);
        expect((await store.search({ text: 'river sundays' })).map((hit) => hit.entry.id)).toEqual([merged.id]);
        await store.save({ id: merged.id, content: 'Ana lives in Porto', lineage: null });
        expect(await store.search({ text: 'river' })).toEqual([]);
        const again = await store.save({ content: 'Ana lives in Lisbon', lineage: merge([harbour]) });
        await store.delete(again.id);
        expect(await store.search({ text: 'harbour' })).toEqual([]);
      });

      it('refuses an empty passage and more than 32, writing nothing', async () => {
        const store = await harness.open();
        for (const passages of [['  '], Array.from({ length: 33 }, (_, i) => `passage ${i}`)]) {
          await expect(store.save({ content: 'x', lineage: merge(passages) })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        }
        expect(await store.list()).toEqual([]);
      });

      if (options.persistent) {
        it('ranks by the passages after a reopen as before it', async () => {
          const store = await harness.open();
          await store.save({ content: harbour });
          await store.save({
            content: 'Ana lives in Porto and likes green tea',
            lineage: merge([harbour, 'Ana drinks green tea every morning']),
          });
          const before = await store.search({ text: 'harbour office tea', maxResults: 5 });
          const reopened = await harness.reopen(store);
          const after = await reopened.search({ text: 'harbour office tea', maxResults: 5 });
          expect(after.map((hit) => [hit.entry.id, hit.score])).toEqual(before.map((hit) => [hit.entry.id, hit.score]));
        });
      }
    });

    describe('list and categories', () => {
      it('lists oldest first, optionally under a category prefix', async () => {
        const store = await harness.open();
        const first = await store.save({ content: 'one', category: 'a/b' });
        harness.clock.advance(1000);
        const second = await store.save({ content: 'two', category: 'a' });
        harness.clock.advance(1000);
        const third = await store.save({ content: 'three', category: 'c' });
        expect((await store.list()).map((e) => e.id)).toEqual([first.id, second.id, third.id]);
        expect((await store.list({ category: 'a' })).map((e) => e.id)).toEqual([first.id, second.id]);
      });

      it('counts entries per category, sorted by name', async () => {
        const store = await harness.open();
        await store.save({ content: 'x', category: 'user-preferences/timezone' });
        await store.save({ content: 'y', category: 'general' });
        await store.save({ content: 'z', category: 'general' });
        expect(await store.listCategories()).toEqual([
          { category: 'general', count: 2 },
          { category: 'user-preferences/timezone', count: 1 },
        ]);
      });
    });

    describe('invalid input', () => {
      for (const [label, category] of HOSTILE_PATHS) {
        it(`refuses a category with ${label} and writes nothing`, async () => {
          const store = await harness.open();
          await expect(store.save({ content: 'should not land', category })).rejects.toMatchObject({ code: 'INVALID_CATEGORY' });
          expect(await store.list()).toEqual([]);
          expect(await store.listCategories()).toEqual([]);
        });
      }

      it('refuses empty content, out-of-range importance, a bad id and a bad timestamp', async () => {
        const store = await harness.open();
        await expect(store.save({ content: '   ' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(store.save({ content: 'x', importance: 1.5 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(store.save({ content: 'x', reinforcementCount: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(store.save({ content: 'x', id: '../../x' })).rejects.toMatchObject({ code: 'INVALID_ID' });
        await expect(store.save({ content: 'x', createdAt: 'yesterday' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(store.save({ content: 'x', tags: [''] })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        expect(await store.list()).toEqual([]);
      });
    });

    describe('concurrency', () => {
      it('loses nothing when many saves run at once', async () => {
        const store = await harness.open();
        const saved = await Promise.all(
          Array.from({ length: 200 }, (_, i) => store.save({ content: `parallel fact ${i}`, category: `bulk/${i % 5}` })),
        );
        expect(new Set(saved.map((e) => e.id)).size).toBe(200);
        expect(await store.list()).toHaveLength(200);
        expect((await store.listCategories()).reduce((sum, c) => sum + c.count, 0)).toBe(200);
      });

      it('keeps every update and delete when they interleave', async () => {
        const store = await harness.open();
        const entries = await Promise.all(Array.from({ length: 40 }, (_, i) => store.save({ content: `entry ${i}` })));
        await Promise.all(
          entries.map((entry, i) => (i % 2 === 0 ? store.save({ id: entry.id, content: `entry ${i} updated` }) : store.delete(entry.id))),
        );
        const remaining = await store.list();
        expect(remaining).toHaveLength(20);
        expect(remaining.every((e) => e.content.endsWith('updated'))).toBe(true);
      });
    });

    describeChangeFeedConformance(harness, options);
    describeTiersConformance(harness, options);

    describe('user text is data (SPEC M2)', () => {
      it('keeps any text, tag, metadata key and category name exactly, finds it, and refuses only what no store can hold', async () => {
        const store = await harness.open();
        const saved = [];
        for (const [i, content] of userTexts(36).entries()) {
          const word = NAME_WORDS[i % NAME_WORDS.length]!;
          const entry = await storedOrRefused(
            store.save({
              content,
              category: i % 4 === 0 ? word : `general/${word}`,
              tags: [word, NAME_WORDS[(i + 1) % NAME_WORDS.length]!],
              metadata: { [word]: content.slice(0, 100) },
            }),
          );
          if (entry) saved.push(entry);
          expect(await store.get(entry?.id ?? '000000000000')).toEqual(entry);
        }
        expect(saved.length).toBeGreaterThan(30);
        for (const word of NAME_WORDS) expect(Array.isArray(await store.search({ text: `${word} ${word}`, maxResults: 50 }))).toBe(true);
        expect((await store.search({ text: 'constructor', maxResults: 50 })).length).toBeGreaterThan(0);
        for (const bad of UNSTORABLE_FRAGMENTS) {
          await expect(store.save({ content: bad })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
          await expect(store.save({ content: 'fine', metadata: { note: bad } })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
          await expect(store.search({ text: bad })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        }
        expect((await store.list()).length).toBe(saved.length);
        const byId = (entries: Array<{ id: string }>) => [...entries].sort((a, b) => (a.id < b.id ? -1 : 1));
        const reread = options.persistent ? await harness.reopen(store) : store;
        expect(byId(await reread.list())).toEqual(byId(saved));
        expect((await reread.listCategories()).reduce((sum, c) => sum + c.count, 0)).toBe(saved.length);
        expect((await reread.search({ text: 'constructor toString', maxResults: 50 })).length).toBeGreaterThan(0);
      });
    });

    describe('lifecycle', () => {
      it('refuses calls after close with STORE_CLOSED', async () => {
        const store = await harness.open();
        await store.close();
        await expect(store.search({ text: 'anything' })).rejects.toMatchObject({ code: 'STORE_CLOSED' });
      });

      if (options.persistent) {
        it('finds everything again after a reopen', async () => {
          const store = await harness.open();
          const a = await store.save({
            content: 'Persistent fact about Kubernetes clusters',
            category: 'project-context/infra',
            tags: ['k8s'],
          });
          const b = await store.save({ content: 'Another durable note', importance: 0.8 });
          const gone = await store.save({ content: 'This one is deleted before reopening' });
          await store.delete(gone.id);
          const reopened = await harness.reopen(store);
          expect(await reopened.get(a.id)).toEqual(a);
          expect(await reopened.get(b.id)).toEqual(b);
          expect(await reopened.get(gone.id)).toBeUndefined();
          expect((await reopened.search({ text: 'kubernetes' })).map((r) => r.entry.id)).toEqual([a.id]);
          expect(await reopened.listCategories()).toEqual([
            { category: 'general', count: 1 },
            { category: 'project-context/infra', count: 1 },
          ]);
        });
      }
    });
  });
}
