import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InMemoryFeedbackStore,
  InMemorySkillStore,
  InMemorySkillUsageStore,
  ManualClock,
  RecordingLogger,
  type Skill,
} from '@reverie/core';
import { DreamEngine } from '../../engine/dream-engine';
import { SKILL_OPTIMIZE_DIRECTIVE } from './render-skill-optimization-prompt';
import { SkillOptimizationPass } from './skill-optimization-pass';
import { FileDreamStateStore } from '@reverie/file-store';

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

let dataPath: string;
beforeEach(async () => {
  dataPath = await mkdtemp(join(tmpdir(), 'reverie-skill-opt-engine-'));
});
afterEach(async () => {
  await rm(dataPath, { recursive: true, force: true });
});

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('');
}

describe('SkillOptimizationPass in a dream engine', () => {
  it('rewrites an at-risk skill through the engine, and undo restores the original', async () => {
    const clock = new ManualClock('2026-04-01T09:00:00.000Z');
    const skills = new InMemorySkillStore({ clock });
    const skillUsage = new InMemorySkillUsageStore({ clock });
    const feedback = new InMemoryFeedbackStore({ clock });
    const original: Skill = await skills.save({
      name: 'devops/deploy',
      summary: 'Deploy the web app',
      content:
        '# Deploy\n1. Build the image.\n2. Push it to the registry.\n3. Roll out to production with the deploy script.\n4. Watch the dashboards for ten minutes and report.',
      lastUsedAt: '2026-05-30T10:00:00.000Z',
    });
    clock.set('2026-06-01T12:00:00.000Z');
    await skillUsage.record({ skill: 'devops/deploy', sessionId: 's7', timestamp: '2026-05-30T10:00:00.000Z' });
    await feedback.record({
      kind: 'session-summary',
      rating: 'poor',
      sessionId: 's7',
      text: 'Deployed to production without running migrations',
      timestamp: '2026-05-30T11:00:00.000Z',
    });
    const rewrite = {
      name: 'devops/deploy',
      summary: 'Deploy the web app, migrations first',
      content: `${original.content}\n0. Before rolling out, run the database migrations and check they succeeded.`,
    };
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'text', text: JSON.stringify({ toSave: [rewrite] }) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      }),
    });
    const engine = new DreamEngine(
      {
        dataPath,
        clock,
        state: new FileDreamStateStore({ dataPath, clock }),
        logger: new RecordingLogger(),
        skills,
        skillUsage,
        feedback,
        model,
      },
      [new SkillOptimizationPass()],
    );

    const report = await engine.run({ trigger: 'manual' });

    expect(report.passes[0]).toMatchObject({
      name: 'skill-optimization',
      status: 'ok',
      applied: 1,
      conflicts: 0,
      refusals: [],
      itemsProcessed: 1,
    });
    const prompt = model.doGenerateCalls[0]!.prompt;
    expect(textOf(prompt.find((message) => message.role === 'system')!.content)).toBe(SKILL_OPTIMIZE_DIRECTIVE);
    expect(textOf(prompt.find((message) => message.role === 'user')!.content)).toContain('without running migrations');
    expect(await skills.get('devops/deploy')).toMatchObject({ ...rewrite, createdAt: original.createdAt, lastUsedAt: original.lastUsedAt });

    const undo = await engine.undo(report.runId);

    expect(undo.restored).toEqual(['skill devops/deploy']);
    const { updatedAt: _updatedAt, ...rest } = original;
    expect(await skills.get('devops/deploy')).toMatchObject(rest);
  });

  it('is reported as skipped by the engine when nothing is at risk or sparse', async () => {
    const clock = new ManualClock('2026-06-01T12:00:00.000Z');
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({ content: [], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }),
    });
    const engine = new DreamEngine(
      {
        state: new FileDreamStateStore({ dataPath, clock }),
        dataPath,
        clock,
        logger: new RecordingLogger(),
        skills: new InMemorySkillStore({ clock }),
        skillUsage: new InMemorySkillUsageStore({ clock }),
        feedback: new InMemoryFeedbackStore({ clock }),
        model,
      },
      [new SkillOptimizationPass()],
    );
    const report = await engine.run({ trigger: 'manual' });
    expect(report.passes[0]).toEqual({
      name: 'skill-optimization',
      phase: 'rem',
      status: 'skipped',
      reason: 'no at-risk or sparse skills',
    });
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});
