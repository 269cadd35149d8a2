import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecordingLogger, type Skill } from '@reverie/core';
import { DreamEngine } from '../../engine/dream-engine';
import { RunFolder } from '@reverie/file-store/internal';
import { shownSkills, SkillConsolidationHarness } from './__fixtures__/skill-consolidation-harness';
import { SkillConsolidationPass } from './skill-consolidation-pass';

let harness: SkillConsolidationHarness;
beforeEach(async () => {
  harness = await SkillConsolidationHarness.create();
});
afterEach(async () => {
  await harness.dispose();
});

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

/** The text of a prompt message (a string, or the text parts of a content list). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('');
}

/** A model that merges the two email skills, adds a guide to `mcp/*` and prunes `old/notes`, wrapped in reasoning and prose. */
function tidyModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const data = textOf(options.prompt.find((message) => message.role === 'user')!.content);
      const shown = shownSkills(data);
      const reply = {
        toDelete: shown.includes('old/notes') ? ['old/notes'] : [],
        toSave: shown.includes('mcp/email-compose')
          ? [
              {
                name: 'mcp/email-send',
                summary: 'Compose and send email [durable]',
                content: 'Draft the message, check recipients, then send.',
                sourceNames: ['mcp/email-send', 'mcp/email-compose'],
              },
              { name: 'mcp/guide', summary: 'Which MCP skill to use', content: 'Email: mcp/email-send. Calendar: mcp/calendar.' },
            ]
          : [],
      };
      return {
        content: [{ type: 'text', text: `<think>two email skills overlap</think>Here is the plan:\n${JSON.stringify(reply)}` }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
}

const withoutStamp = ({ updatedAt: _updatedAt, ...rest }: Skill) => rest;

describe('SkillConsolidationPass in the dream engine', () => {
  it('runs end to end (merge, guide, prune, seeAlso repair), then undo restores every skill exactly', async () => {
    await harness.add({
      name: 'mcp/email-send',
      createdAt: '2025-03-01T00:00:00.000Z',
      lastUsedAt: '2026-05-01T00:00:00.000Z',
      seeAlso: ['mcp/calendar'],
    });
    await harness.add({ name: 'mcp/email-compose', createdAt: '2025-06-01T00:00:00.000Z', lastUsedAt: '2026-05-20T00:00:00.000Z' });
    await harness.add({ name: 'mcp/calendar', seeAlso: ['mcp/email-compose', 'old/notes'] });
    await harness.add({ name: 'old/notes', content: 'Email: see mcp.' });
    for (const name of ['research/web', 'writing/tone', 'writing/style', 'billing/refunds']) await harness.add({ name });
    await harness.use('mcp/email-send', 's1');
    await harness.use('mcp/email-compose', 's1');
    const before = await harness.skills.list();

    const model = tidyModel();
    const context = harness.context(undefined);
    const engine = new DreamEngine({ ...context.services, logger: new RecordingLogger(), model }, [
      new SkillConsolidationPass({ protectedSkills: ['billing/*'] }),
    ]);
    const report = await engine.run({ trigger: 'manual' });

    const outcome = report.passes[0]!;
    expect(outcome).toMatchObject({ name: 'skill-consolidation', phase: 'rem', status: 'ok', applied: 5, conflicts: 0, itemsProcessed: 8 });
    if (outcome.status === 'skipped') throw new Error('skipped');
    expect(outcome.refusals).toEqual([]);
    expect(outcome.details).toMatchObject({
      merges: [{ into: 'mcp/email-send', sources: ['mcp/email-compose'] }],
      guides: ['mcp/guide'],
      deleted: ['old/notes'],
      seeAlsoRepaired: ['mcp/calendar'],
      deleteCap: 2,
    });
    expect(model.doGenerateCalls).toHaveLength(1);
    const data = textOf(model.doGenerateCalls[0]!.prompt.find((message) => message.role === 'user')!.content);
    expect(data).toContain('"mcp/email-compose" + "mcp/email-send": used together in 1 session(s)');
    expect(data).toContain('Skill "old/notes": created 2026-01-01, never used, used 0× in the last 30 days [sparse-content]');

    expect(await harness.names()).toEqual([
      'billing/refunds',
      'mcp/calendar',
      'mcp/email-send',
      'mcp/guide',
      'research/web',
      'writing/style',
      'writing/tone',
    ]);
    expect(await harness.skills.get('mcp/email-send')).toMatchObject({
      summary: 'Compose and send email',
      createdAt: '2025-03-01T00:00:00.000Z',
      lastUsedAt: '2026-05-20T00:00:00.000Z',
      seeAlso: ['mcp/calendar'],
    });
    expect((await harness.skills.get('mcp/calendar'))?.seeAlso).toEqual(['mcp/email-send']);
    expect((await harness.skills.get('mcp/guide'))?.seeAlso).toEqual(['mcp/calendar', 'mcp/email-send']);

    const folder = (await RunFolder.open(harness.dataPath, report.runId))!;
    const plan = await folder.readPlan('skill-consolidation');
    expect(plan.operations.map((operation) => operation.op)).toEqual([
      'skill.save',
      'skill.save',
      'skill.save',
      'skill.delete',
      'skill.delete',
    ]);

    const undo = await engine.undo(report.runId);
    expect(undo.kept).toEqual([]);
    expect(undo.removed).toEqual(['skill mcp/guide']);
    expect(undo.restored.sort()).toEqual(['skill mcp/calendar', 'skill mcp/email-compose', 'skill mcp/email-send', 'skill old/notes']);
    expect((await harness.skills.list()).map(withoutStamp)).toEqual(before.map(withoutStamp));
  });
});
