import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DreamEngine } from '../../engine/dream-engine';
import { PassHarness } from './__fixtures__/pass-harness';
import { shownEntries } from './__fixtures__/scripted-gateway';
import { MemoryConsolidationPass } from './memory-consolidation-pass';

let harness: PassHarness;
beforeEach(async () => {
  harness = await PassHarness.create();
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
      const reply = { toDelete: [], toSave: [{ content: 'The user lives in Berlin, Germany', sourceIds: berlin.map((entry) => entry.id) }] };
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
    expect(live.map((entry) => entry.content).sort()).toEqual(['The user lives in Berlin, Germany', 'favourite dessert is pistachio gelato.']);
    expect(live.find((entry) => entry.content.includes('Berlin'))).toMatchObject({
      reinforcementCount: 3,
      createdAt: '2025-01-01T00:00:00.000Z',
    });

    const again = await engine.run({ trigger: 'manual' });
    expect(again.passes[0]).toMatchObject({ status: 'ok', applied: 0 });
    expect(model.doGenerateCalls).toHaveLength(1);
  });
});
