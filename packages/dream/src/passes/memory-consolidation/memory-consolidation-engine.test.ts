import { MockLanguageModelV3 } from 'ai/test';
import { memoryHistory } from '@reverie/core';
import { contentFingerprint } from '@reverie/core/internal';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DreamEngine } from '../../engine/dream-engine';
import { ConsolidationHarness } from './__fixtures__/consolidation-harness';
import { shownEntries } from './__fixtures__/shown-entries';
import { MemoryConsolidationPass } from './memory-consolidation-pass';

let harness: ConsolidationHarness;
beforeEach(async () => {
  harness = await ConsolidationHarness.create();
});
afterEach(async () => {
  await harness.dispose();
});

/** A mock model that merges every entry mentioning Berlin, wrapped in reasoning and prose. */
function berlinModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const user = options.prompt.find((message) => message.role === 'user')!;
      const data = (user.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('');
      const berlin = shownEntries(data).filter((entry) => entry.content.includes('Berlin'));
      const reply = {
        toDelete: [],
        toSave: [{ content: 'The user lives in Berlin, Germany', sourceIds: berlin.map((entry) => entry.id) }],
      };
      return {
        content: [{ type: 'text', text: `<think>these say the same</think>Here is the plan:\n${JSON.stringify(reply)}` }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 20, text: 20, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
}

describe('MemoryConsolidationPass in the dream engine', () => {
  it('runs end to end: pre-pass, model merge, apply, cursor; the next cycle changes and asks nothing', async () => {
    await harness.add({ content: 'User lives in Berlin', reinforcementCount: 2 }, '2025-01-01T00:00:00.000Z');
    await harness.add({ content: 'The user is based in Berlin, Germany' }, '2025-04-01T00:00:00.000Z');
    await harness.add({ content: 'Favourite dessert is pistachio gelato' }, '2025-05-01T00:00:00.000Z');
    await harness.add({ content: 'favourite dessert is pistachio gelato.' }, '2025-06-01T00:00:00.000Z');
    harness.clock.set('2026-03-01T09:00:00.000Z');
    const model = berlinModel();
    const context = harness.context(undefined);
    const engine = new DreamEngine({ ...context.services, model }, [new MemoryConsolidationPass()]);

    const report = await engine.run({ trigger: 'manual' });

    const outcome = report.passes[0]!;
    expect(outcome).toMatchObject({ name: 'memory-consolidation', status: 'ok', conflicts: 0 });
    expect(model.doGenerateCalls).toHaveLength(1);
    const live = await harness.live();
    expect(live.map((entry) => entry.content).sort()).toEqual([
      'The user lives in Berlin, Germany',
      'favourite dessert is pistachio gelato.',
    ]);
    expect(live.find((entry) => entry.content.includes('Berlin'))).toMatchObject({
      reinforcementCount: 3,
      createdAt: '2025-01-01T00:00:00.000Z',
    });

    const again = await engine.run({ trigger: 'manual' });
    expect(again.passes[0]).toMatchObject({ status: 'ok', applied: 0 });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('records on each merged entry the entries it merged and the run (SPEC B10), and undo takes it back', async () => {
    const first = await harness.add({ content: 'User lives in Berlin', reinforcementCount: 2 }, '2025-01-01T00:00:00.000Z');
    const second = await harness.add({ content: 'The user is based in Berlin, Germany' }, '2025-04-01T00:00:00.000Z');
    const gelato = await harness.add({ content: 'Favourite dessert is pistachio gelato' }, '2025-05-01T00:00:00.000Z');
    const twin = await harness.add({ content: 'favourite dessert is pistachio gelato.' }, '2025-06-01T00:00:00.000Z');
    harness.clock.set('2026-03-01T09:00:00.000Z');
    const engine = new DreamEngine({ ...harness.context(undefined).services, model: berlinModel() }, [new MemoryConsolidationPass()]);

    const { runId } = await engine.run({ trigger: 'manual' });

    const live = await harness.live();
    const berlin = live.find((entry) => entry.content.includes('Berlin'))!;
    expect(berlin.lineage?.origin).toEqual({ kind: 'merge', at: '2026-03-01T09:00:00.000Z', runId, pass: 'memory-consolidation' });
    expect(berlin.lineage?.ancestors?.map((ancestor) => [ancestor.id, ancestor.relation, ancestor.into]).sort()).toEqual(
      [
        [first.id, 'merged', berlin.id],
        [second.id, 'merged', berlin.id],
      ].sort(),
    );
    expect(berlin.lineage?.ancestors?.find((ancestor) => ancestor.id === first.id)).toMatchObject({
      excerpt: 'User lives in Berlin',
      fingerprint: contentFingerprint('User lives in Berlin'),
      runId,
    });
    const dessert = live.find((entry) => entry.content.includes('gelato'))!;
    expect(dessert.lineage?.ancestors?.map((ancestor) => ancestor.id).sort()).toEqual([gelato.id, twin.id].sort());
    // The sources are gone from the store; the history still shows them.
    const history = memoryHistory(berlin, (id) => live.some((entry) => entry.id === id));
    expect(history.steps.map((step) => [step.kind, step.stored])).toEqual([
      ['merged', false],
      ['merged', false],
      ['written', true],
    ]);

    await engine.undo(runId);
    const restored = await harness.live();
    expect(restored.map((entry) => entry.id).sort()).toEqual([first.id, second.id, gelato.id, twin.id].sort());
    expect(restored.every((entry) => entry.lineage === undefined)).toBe(true);
  });

  it('names the run that applies a reviewed plan in the lineage, not the dry run that made it (SPEC B10)', async () => {
    await harness.add({ content: 'Favourite dessert is pistachio gelato' }, '2025-05-01T00:00:00.000Z');
    await harness.add({ content: 'favourite dessert is pistachio gelato.' }, '2025-06-01T00:00:00.000Z');
    harness.clock.set('2026-03-01T09:00:00.000Z');
    const engine = new DreamEngine(harness.context(undefined).services, [new MemoryConsolidationPass()]);
    const dry = await engine.run({ trigger: 'manual', dryRun: true });
    const applied = await engine.apply(dry.planId!);
    expect(applied.runId).not.toBe(dry.runId);
    const [merged] = await harness.live();
    expect(merged!.lineage?.origin?.runId).toBe(applied.runId);
    expect(merged!.lineage?.ancestors?.map((ancestor) => ancestor.runId)).toEqual([applied.runId, applied.runId]);
  });
});
