import { MockLanguageModelV3 } from 'ai/test';
import { memoryHistory } from '@reverie/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DreamEngine } from '../../engine/dream-engine';
import { ConsolidationHarness } from './__fixtures__/consolidation-harness';
import { ScriptedGateway } from '../__fixtures__/scripted-gateway';
import { shownEntries } from './__fixtures__/shown-entries';
import type { ConsolidationItem } from './consolidation-item';
import { deletionSurvivors, heldShare } from './deletion-survivors';
import type { ProposedSave } from './review-reply';
import { MemoryConsolidationPass } from './memory-consolidation-pass';

const noted = (content: string) => ({ content, createdAt: '2023-07-16T10:00:00.000Z', lastSeenAt: '2023-07-16T10:00:00.000Z' });

describe('heldShare', () => {
  it('counts a text that keeps every name, number, date and negation and most words of the deleted entry, whatever it adds', () => {
    const deleted = noted('Maria shared a poster for a chili cook-off at her church');
    expect(heldShare(deleted, 'Maria shared a poster for a chili cook-off at her church; she made her own chili for it')).toBe(1);
    expect(heldShare(deleted, 'Maria went to a chili cook-off at her church and shared its poster')).toBeGreaterThan(0.55);
  });

  it('refuses a text that drops a name, a number, a date or a negation, or most of what it says', () => {
    expect(heldShare(noted('Maria shared a poster for a chili cook-off'), 'John shared a poster for a chili cook-off')).toBeUndefined();
    expect(heldShare(noted('Jon opened 2 dance studios'), 'Jon opened dance studios')).toBeUndefined();
    expect(heldShare(noted('Jon does not like jazz'), 'Jon likes jazz')).toBeUndefined();
    expect(heldShare(noted('Maria shared a poster for a chili cook-off at church'), 'Maria likes chili')).toBeUndefined();
  });
});

describe('deletionSurvivors', () => {
  const item = (id: string, content: string): ConsolidationItem => {
    const view = {
      ...noted(content),
      id,
      category: 'general',
      tags: [],
      updatedAt: '2023-07-16T10:00:00.000Z',
      reinforcementCount: 1,
      importance: 0.5,
      metadata: {},
    };
    return { id, view, members: [view] };
  };
  const save = (content: string, sources: ConsolidationItem[]): ProposedSave => ({
    position: 1,
    content,
    category: 'general',
    tags: [],
    sources,
    movedIntoProtected: false,
  });

  it('takes what holds most of the deleted entry, never a source, a deletion or an entry in a supersession', () => {
    const deleted = item('d', 'Jon showed off his studio at a fair');
    const exact = item('a', 'Jon showed off his studio at a fair last week');
    const partial = item('b', 'Jon showed his studio');
    const source = item('s', 'Jon showed off his studio at a fair');
    const older = item('o', 'Jon showed off his studio at a fair');
    const newer = item('n', 'Jon showed off his new studio at a fair');
    const merge = save('Jon showed his studio at the fair', [source]);
    const review = { saves: [merge], deletions: [deleted], supersessions: [{ older, newer, verified: true }] };

    // The source, the pair of the supersession and the deleted entry itself say it all, but they do not stay as they are.
    expect(deletionSurvivors(review, [deleted, source, older, newer])).toEqual([{ deleted, into: { save: merge } }]);
    const none = { saves: [], deletions: [deleted], supersessions: [] };
    expect(deletionSurvivors(none, [deleted, partial, exact])).toEqual([{ deleted, into: { item: exact } }]);
    expect(deletionSurvivors(none, [deleted, item('x', 'Gina opened a store'), item('y', 'Gina showed off her studio at a fair')])).toEqual(
      [],
    );
  });
});

let harness: ConsolidationHarness;
beforeEach(async () => {
  harness = await ConsolidationHarness.create();
});
afterEach(async () => {
  await harness.dispose();
});

const UNRELATED = ['apple orchard', 'bicycle chain', 'cello string', 'dolphin pod', 'emerald ring', 'falcon nest', 'glacier melt'];

/** A model that deletes each shown entry whose text contains one of `deleted`, and merges the entries containing `merge` into `into`. */
function model(deleted: readonly string[], merge?: { containing: string; into: string }): ScriptedGateway {
  return new ScriptedGateway((data) => {
    const shown = shownEntries(data);
    const sources = merge ? shown.filter((entry) => entry.content.includes(merge.containing)) : [];
    return {
      toDelete: shown.filter((entry) => deleted.some((text) => entry.content.includes(text))).map((entry) => entry.id),
      toSave: merge ? [{ content: merge.into, sourceIds: sources.map((entry) => entry.id) }] : [],
      toSupersede: [],
    };
  });
}

describe('MemoryConsolidationPass: a deleted duplicate names its survivor (SPEC B10)', () => {
  it('records the duplicate in the lineage of the shown entry that holds its facts; recall finds it by the duplicate text; a deletion nothing holds records nothing', async () => {
    for (const words of UNRELATED) await harness.add({ content: words }, '2023-06-01T09:00:00.000Z');
    const kept = await harness.add(
      { content: 'Maria shared a poster for the chili cook-off at her church and made chili for it' },
      '2023-07-16T09:00:00.000Z',
    );
    const duplicate = await harness.add({ content: 'Maria shared a poster for a chili cook-off' }, '2023-07-17T09:00:00.000Z');
    const unheld = await harness.add({ content: "Maria's chili won 3rd place at the cook-off" }, '2023-07-18T09:00:00.000Z');
    harness.clock.set('2023-08-01T09:00:00.000Z');

    // Two of the three entries shown are deleted: over the default share a reply may take out.
    const plan = await harness.run(new MemoryConsolidationPass({ deletionCap: 0.9 }), model(['a chili cook-off', '3rd place']));

    expect(plan.notes.join(' ')).toContain('1 deleted duplicate(s) recorded in the lineage');
    const reasons = plan.operations.map((operation) => operation.reason);
    expect(reasons).toContain(`consolidation: deleted by the model as a duplicate of ${kept.id}, which records it in its lineage`);
    expect(reasons).toContain('consolidation: deleted by the model as noise or superseded');
    expect(await harness.memory.get(duplicate.id)).toBeUndefined();
    expect(await harness.memory.get(unheld.id)).toBeUndefined();
    const survivor = (await harness.memory.get(kept.id))!;
    expect(survivor).toMatchObject({ content: kept.content, createdAt: kept.createdAt, reinforcementCount: kept.reinforcementCount });
    expect(survivor.lineage?.ancestors).toEqual([
      expect.objectContaining({ id: duplicate.id, relation: 'merged', into: kept.id, excerpt: duplicate.content, runId: 'run-test' }),
    ]);
    expect(survivor.lineage?.passages).toEqual([kept.content, duplicate.content]);
    expect((await harness.memory.search({ text: 'poster chili cook-off' }))[0]?.entry.id).toBe(kept.id);
  });

  it('records it in the merge of the same reply that holds its facts', async () => {
    for (const words of UNRELATED) await harness.add({ content: words }, '2023-06-01T09:00:00.000Z');
    const first = await harness.add({ content: 'John plays the guitar in a band' }, '2023-07-10T09:00:00.000Z');
    const second = await harness.add({ content: 'John plays guitar in his band on Fridays' }, '2023-07-11T09:00:00.000Z');
    const duplicate = await harness.add({ content: 'John plays guitar on Fridays' }, '2023-07-12T09:00:00.000Z');
    harness.clock.set('2023-08-01T09:00:00.000Z');

    await harness.run(
      new MemoryConsolidationPass(),
      model(['guitar on Fridays'], { containing: 'band', into: 'John plays the guitar in his band on Fridays' }),
    );

    const live = await harness.live();
    expect(live.map((entry) => entry.id)).not.toContain(duplicate.id);
    const merged = live.find((entry) => entry.content === 'John plays the guitar in his band on Fridays')!;
    expect(merged.lineage?.ancestors?.map((ancestor) => ancestor.id).sort()).toEqual([first.id, second.id, duplicate.id].sort());
    expect(merged.lineage?.passages).toEqual([first.content, second.content, duplicate.content]);
  });

  it('shows the deleted duplicate in the survivor history, and undo puts both back as they were', async () => {
    for (const words of UNRELATED) await harness.add({ content: words }, '2023-06-01T09:00:00.000Z');
    const kept = await harness.add({ content: 'Jon showed off his dance studio business at a fair' }, '2023-07-16T09:00:00.000Z');
    const duplicate = await harness.add({ content: 'Jon showed off his studio at a fair' }, '2023-07-17T09:00:00.000Z');
    harness.clock.set('2023-08-01T09:00:00.000Z');
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        const user = options.prompt.find((message) => message.role === 'user')!;
        const data = (user.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('');
        const gone = shownEntries(data).filter((entry) => entry.content === duplicate.content);
        return {
          content: [{ type: 'text', text: JSON.stringify({ toDelete: gone.map((entry) => entry.id), toSave: [] }) }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: {
            inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 20, text: 20, reasoning: 0 },
          },
          warnings: [],
        };
      },
    });
    const engine = new DreamEngine({ ...harness.context(undefined).services, model }, [new MemoryConsolidationPass({ deletionCap: 0.9 })]);

    const { runId } = await engine.run({ trigger: 'manual' });

    const survivor = (await harness.memory.get(kept.id))!;
    expect(survivor.lineage?.ancestors?.[0]).toMatchObject({ id: duplicate.id, relation: 'merged', runId });
    const live = await harness.live();
    const history = memoryHistory(survivor, (id) => live.some((entry) => entry.id === id));
    // Oldest first: the survivor was written, then took in the duplicate this run deleted.
    expect(history.steps.map((step) => [step.kind, step.stored])).toEqual([
      ['written', true],
      ['merged', false],
    ]);

    await engine.undo(runId);
    expect(await harness.memory.get(duplicate.id)).toMatchObject({ content: duplicate.content });
    expect((await harness.memory.get(kept.id))?.lineage).toEqual(kept.lineage);
  });
});
