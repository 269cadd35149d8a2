import { type MemoryEntry } from '@reverie/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConsolidationHarness } from './__fixtures__/consolidation-harness';
import { ScriptedGateway } from '../__fixtures__/scripted-gateway';
import { shownEntries } from './__fixtures__/shown-entries';
import { MemoryConsolidationPass } from './memory-consolidation-pass';

let harness: ConsolidationHarness;
beforeEach(async () => {
  harness = await ConsolidationHarness.create();
});
afterEach(async () => {
  await harness.dispose();
});

const UNRELATED = [
  'apple orchard',
  'bicycle chain',
  'cello string',
  'dolphin pod',
  'emerald ring',
  'falcon nest',
  'glacier melt',
  'harbor crane',
  'igloo snow',
  'jasmine scent',
];
async function background(): Promise<void> {
  for (const words of UNRELATED) await harness.add({ content: words }, '2024-06-01T09:00:00.000Z');
}

/** A model that says the entry with `newer` in its text replaces the one with `older`, when both are shown. */
function supersedes(older: string, newer: string, extra: object = {}): ScriptedGateway {
  return new ScriptedGateway((data) => {
    const shown = shownEntries(data);
    const from = shown.find((entry) => entry.content.includes(older));
    const to = shown.find((entry) => entry.content.includes(newer));
    return { toDelete: [], toSave: [], toSupersede: from && to ? [{ olderId: from.id, newerId: to.id }] : [], ...extra };
  });
}

const current = async (text: string) => (await harness.memory.search({ text })).map((hit) => hit.entry.content);
const asOf = async (text: string, at: string) => (await harness.memory.search({ text, asOf: at })).map((hit) => hit.entry.content);

describe('MemoryConsolidationPass: supersession (SPEC B9)', () => {
  it('replaces a protected fact only by a newer one in its own category about the same subject (SPEC B11)', async () => {
    await background();
    const tea = await harness.add(
      { content: 'The user drinks green tea every morning', category: 'user-preferences/drinks' },
      '2025-01-10T09:00:00.000Z',
    );
    const elsewhere = await harness.add(
      { content: 'The user now drinks green tea with lemon every morning', category: 'general' },
      '2025-09-03T09:00:00.000Z',
    );
    const loose = await harness.add(
      { content: 'Morning routine: a walk and some stretching', category: 'user-preferences/drinks' },
      '2025-09-04T09:00:00.000Z',
    );
    harness.clock.set('2026-03-01T09:00:00.000Z');
    const byOtherCategory = await harness.run(new MemoryConsolidationPass(), supersedes('drinks green tea every', 'with lemon'));
    expect(byOtherCategory.refusals.join('\n')).toContain(
      `${tea.id} is protected (the category user-preferences/drinks is protected) and may only be replaced by a newer entry in its own category user-preferences/drinks`,
    );
    const byOtherSubject = await harness.run(
      new MemoryConsolidationPass({ strategy: 'full' }),
      supersedes('drinks green tea every', 'Morning routine'),
    );
    expect(byOtherSubject.operations).toEqual([]);
    expect(byOtherSubject.refusals.join('\n')).toMatch(
      new RegExp(
        `${tea.id} → ${loose.id}\\) refused: (${tea.id} is protected .* about the same subject|the host does not find the two entries similar)`,
      ),
    );
    for (const id of [tea.id, elsewhere.id, loose.id]) expect((await harness.memory.get(id))?.validTo).toBeUndefined();
  });

  it('keeps the older fact, ends it where the newer one was first noted, and recall follows', async () => {
    await background();
    const lyon = await harness.add({ content: 'The user lives in Lyon' }, '2025-01-10T09:00:00.000Z');
    const porto = await harness.add({ content: 'The user now lives in Porto' }, '2025-09-03T09:00:00.000Z');
    harness.clock.set('2026-03-01T09:00:00.000Z');
    const plan = await harness.run(new MemoryConsolidationPass(), supersedes('Lyon', 'Porto'));

    expect(plan.operations.map((operation) => operation.op)).toEqual(['memory.save', 'memory.save']);
    expect(plan.notes.join(' ')).toMatch(/1 fact\(s\) superseded/);
    const [older, newer] = [await harness.memory.get(lyon.id), await harness.memory.get(porto.id)] as MemoryEntry[];
    expect(older).toMatchObject({ content: lyon.content, lastSeenAt: lyon.lastSeenAt, validTo: porto.createdAt, supersededBy: porto.id });
    expect(newer).toMatchObject({ content: porto.content, lastSeenAt: porto.lastSeenAt, validFrom: porto.createdAt });
    // SPEC B10: the successor records what it superseded, in which run; the older entry's own lineage is untouched.
    expect(newer!.lineage?.ancestors).toEqual([
      expect.objectContaining({
        id: lyon.id,
        relation: 'superseded',
        into: porto.id,
        at: '2026-03-01T09:00:00.000Z',
        runId: 'run-test',
        excerpt: 'The user lives in Lyon',
      }),
    ]);
    expect(older!.lineage).toBeUndefined();
    expect(await harness.live()).toHaveLength(UNRELATED.length + 2);
    expect(await current('where does the user live')).toEqual(['The user now lives in Porto']);
    expect(await asOf('where does the user live', '2025-05-01T00:00:00.000Z')).toEqual(['The user lives in Lyon']);

    // The superseded fact is history: the next run neither shows it nor replaces it again.
    const again = supersedes('Lyon', 'Porto');
    await harness.memory.save({ content: 'The user lives in Porto near the river' });
    await harness.run(new MemoryConsolidationPass(), again);
    expect(again.requests.flatMap((request) => shownEntries(request.data).map((entry) => entry.id))).not.toContain(lyon.id);
  });

  it('dates the change by the newer fact’s subject time when it has one', async () => {
    await background();
    const acme = await harness.add({ content: 'The user works at Acme as a designer' }, '2025-01-10T09:00:00.000Z');
    const globex = await harness.add(
      { content: 'The user works at Globex as a product manager', metadata: { 'subject.start': '2025-09' } },
      '2025-11-20T09:00:00.000Z',
    );
    harness.clock.set('2026-03-01T09:00:00.000Z');
    await harness.run(new MemoryConsolidationPass(), supersedes('Acme', 'Globex'));
    expect(await harness.memory.get(acme.id)).toMatchObject({ validTo: '2025-09-01T00:00:00.000Z', supersededBy: globex.id });
    expect((await harness.memory.get(globex.id))?.validFrom).toBe('2025-09-01T00:00:00.000Z');
    expect(await asOf('where does the user work', '2025-10-01T00:00:00.000Z')).toEqual(['The user works at Globex as a product manager']);
  });

  it('refuses what the host cannot verify, and applies nothing of it', async () => {
    await background();
    const lyon = await harness.add({ content: 'The user lives in Lyon' }, '2025-01-10T09:00:00.000Z');
    const seenAgain = await harness.add({ content: 'The user lives in Lyon, near the old town' }, '2025-01-20T09:00:00.000Z');
    const porto = await harness.add({ content: 'The user now lives in Porto' }, '2025-09-03T09:00:00.000Z');
    const trip1 = await harness.add(
      { content: 'The user went on a trip to Japan', metadata: { 'subject.point': '2024-05' } },
      '2025-09-04T09:00:00.000Z',
    );
    const trip2 = await harness.add(
      { content: 'The user went on a trip to Japan again', metadata: { 'subject.point': '2025-04' } },
      '2025-09-05T09:00:00.000Z',
    );
    const cello = await harness.add({ content: 'The user plays the cello on weekends' }, '2025-09-06T09:00:00.000Z');
    await harness.memory.save({ ...seenAgain, lastSeenAt: '2025-10-01T09:00:00.000Z' });
    harness.clock.set('2026-03-01T09:00:00.000Z');
    const gateway = new ScriptedGateway((data) => {
      const shown = new Set(shownEntries(data).map((entry) => entry.id));
      const pairs = [
        [porto.id, lyon.id], // reversed: the newer fact named as the older
        [lyon.id, lyon.id], // itself
        [lyon.id, 'ffffffffffff'], // not shown
        [trip1.id, trip2.id], // two events
        [lyon.id, cello.id], // unrelated
        [seenAgain.id, porto.id], // the older fact was observed after the newer one was noted
      ].filter(([older]) => shown.has(older!));
      return { toDelete: [], toSave: [], toSupersede: pairs.map(([olderId, newerId]) => ({ olderId, newerId })) };
    });
    const plan = await harness.run(new MemoryConsolidationPass(), gateway);
    const refusals = plan.refusals.join('\n');
    expect(refusals).toMatch(/cannot be the newer fact/);
    expect(refusals).toMatch(/cannot replace itself/);
    expect(refusals).toMatch(/ffffffffffff was not shown/);
    expect(refusals).toMatch(/one event does not replace another/);
    expect(refusals).toMatch(/does not find the two entries similar/);
    expect(refusals).toMatch(/observed again after/);
    expect(plan.operations.filter((operation) => operation.op === 'memory.save' && operation.entry.supersededBy !== undefined)).toEqual([]);
    expect((await harness.live()).every((entry) => entry.validTo === undefined)).toBe(true);
  });

  it('refuses a supersession of an entry the same reply merges', async () => {
    await background();
    const a = await harness.add({ content: 'The office wifi password is on the fridge' }, '2025-01-10T09:00:00.000Z');
    const b = await harness.add({ content: 'The office wifi password is on the fridge door' }, '2025-02-10T09:00:00.000Z');
    const c = await harness.add({ content: 'The office wifi password is now in the vault' }, '2025-03-10T09:00:00.000Z');
    harness.clock.set('2026-03-01T09:00:00.000Z');
    const gateway = new ScriptedGateway(() => ({
      toDelete: [],
      toSave: [{ content: 'The office wifi password is on the fridge door', sourceIds: [a.id, b.id] }],
      toSupersede: [{ olderId: a.id, newerId: c.id }],
    }));
    const plan = await harness.plan(new MemoryConsolidationPass(), gateway);
    expect(plan.refusals.join('\n')).toMatch(new RegExp(`${a.id} is merged, rewritten or deleted by the same reply`));
    expect(plan.operations.some((operation) => operation.op === 'memory.save' && operation.entry.supersededBy !== undefined)).toBe(false);
  });
});

/** Changed facts as people state them: the older wording, then the newer one (rarely the same words). */
const CHANGED_FACTS: Array<[string, string]> = [
  ['The user lives in Lyon', 'User moved to Porto and lives there now'],
  ['User works at Acme as a designer', 'The user now works at Globex as a product manager'],
  ['The user uses VS Code as their editor', 'User switched editors: Neovim from now on'],
  ['The user drives a blue Golf', 'User sold the Golf and drives a Tesla Model 3'],
  ['Team standup is at 9:30 every morning', 'The standup moved to 10:00'],
  ['The user prefers tea in the morning', 'User has switched to coffee in the morning'],
  ['Staging runs PostgreSQL 14', 'Staging was upgraded to PostgreSQL 16'],
  ['The user’s manager is Priya', 'User reports to Tomás now, no longer Priya'],
  ['Deploys go out on Tuesdays', 'Deploys now go out on Thursdays'],
  ['The user is vegetarian', 'User eats fish again, no longer vegetarian'],
  ['The user’s phone is an iPhone 12', 'User upgraded the phone to an iPhone 15'],
  ['The user plays tennis on Saturdays', 'User gave up tennis and plays padel on Saturdays'],
  ['Project Atlas is hosted on Heroku', 'Project Atlas migrated from Heroku to Fly.io'],
  ['The user’s gym is FitLab downtown', 'User changed gym: now goes to Urban Climb'],
  ['The user is learning Spanish', 'User stopped Spanish and is learning Portuguese'],
  ['Invoices are sent on the 1st of the month', 'Invoices are now sent on the 15th of the month'],
  ['The user’s dentist is Dr. Alves', 'User has a new dentist, Dr. Martins'],
  ['The user commutes by bus', 'User bought a bike and commutes by bike'],
  ['The user’s laptop runs Windows', 'User moved the laptop to Linux (Fedora)'],
  ['The user’s favourite band is Radiohead', 'Favourite band these days: Arctic Monkeys, says the user'],
];

describe('MemoryConsolidationPass: supersession of changed facts in people’s wording (SPEC B9, B11)', () => {
  it('accepts at least 95% of the corpus', async () => {
    let accepted = 0;
    const refused: string[] = [];
    for (const [older, newer] of CHANGED_FACTS) {
      const world = await ConsolidationHarness.create();
      try {
        for (const words of UNRELATED) await world.add({ content: words }, '2024-06-01T09:00:00.000Z');
        const before = await world.add({ content: older }, '2025-01-10T09:00:00.000Z');
        const after = await world.add({ content: newer }, '2025-08-10T09:00:00.000Z');
        world.clock.set('2026-03-01T09:00:00.000Z');
        const gateway = new ScriptedGateway((data) => {
          const shown = new Set(shownEntries(data).map((entry) => entry.id));
          return {
            toDelete: [],
            toSave: [],
            toSupersede: shown.has(before.id) && shown.has(after.id) ? [{ olderId: before.id, newerId: after.id }] : [],
          };
        });
        const plan = await world.run(new MemoryConsolidationPass(), gateway);
        if ((await world.memory.get(before.id))?.supersededBy === after.id) accepted++;
        else refused.push(`${older} → ${newer}: ${plan.refusals.join('; ') || 'not shown together'}`);
      } finally {
        await world.dispose();
      }
    }
    expect(accepted / CHANGED_FACTS.length, refused.join('\n')).toBeGreaterThanOrEqual(0.95);
  });
});
