import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemoryConversationLog, InMemorySkillStore, ManualClock, RecordingLogger } from '@reverie/core';
import { DreamEngine } from '../../engine/dream-engine';
import { SKILL_GAP_DIRECTIVE } from './render-skill-gap-prompt';
import { SkillGapPass } from './skill-gap-pass';
import { FileDreamStateStore } from '@reverie/file-store';

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

let dataPath: string;
beforeEach(async () => {
  dataPath = await mkdtemp(join(tmpdir(), 'reverie-skill-gap-engine-'));
});
afterEach(async () => {
  await rm(dataPath, { recursive: true, force: true });
});

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('');
}

describe('SkillGapPass in a dream engine', () => {
  it('creates the skill through the engine (model reply with prose around the JSON), and undo removes it', async () => {
    const clock = new ManualClock('2026-06-01T12:00:00.000Z');
    const skills = new InMemorySkillStore({ clock });
    const conversationLog = new InMemoryConversationLog({ clock });
    await skills.save({ name: 'travel/booking', summary: 'Book trips', content: 'Steps to book a trip.' });
    await conversationLog.append({ sessionId: 's1', role: 'user', content: 'Rotate the staging API keys please' });
    await conversationLog.append({ sessionId: 's1', role: 'assistant', content: 'Rotated; the old keys expire in 24h.' });
    await conversationLog.append({ sessionId: 's2', role: 'user', content: 'Can you rotate the production keys?' });
    const reply = {
      skills: [
        {
          name: 'security/key-rotation',
          summary: 'Use when the user asks to rotate API keys.',
          content: '# Rotating keys\n1. Ask which environment.\n2. Issue new keys, then expire the old ones.',
          sessionIds: ['s1', 's2'],
          seeAlso: ['travel/booking'],
        },
      ],
    };
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'text', text: `<think>two sessions rotate keys</think>Here you go:\n${JSON.stringify(reply)}` }],
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
        conversationLog,
        model,
      },
      [new SkillGapPass()],
    );

    const report = await engine.run({ trigger: 'manual' });

    expect(report.passes[0]).toMatchObject({ name: 'skill-gap', status: 'ok', applied: 1, conflicts: 0, refusals: [], itemsProcessed: 3 });
    expect(model.doGenerateCalls).toHaveLength(1);
    const prompt = model.doGenerateCalls[0]!.prompt;
    expect(textOf(prompt.find((message) => message.role === 'system')!.content)).toBe(SKILL_GAP_DIRECTIVE);
    expect(textOf(prompt.find((message) => message.role === 'user')!.content)).toContain('"rotate" sessions=2 total=2 ids=["s1","s2"]');
    expect(await skills.get('security/key-rotation')).toMatchObject({
      seeAlso: ['travel/booking'],
      createdAt: '2026-06-01T12:00:00.000Z',
      lastUsedAt: null,
    });
    expect(
      await new SkillGapPass().conversationLogReadThrough({
        dataPath,
        clock,
        state: new FileDreamStateStore({ dataPath, clock }),
        logger: new RecordingLogger(),
      }),
    ).toBe(3);

    const undo = await engine.undo(report.runId);

    expect(undo.removed).toEqual(['skill security/key-rotation']);
    expect((await skills.list()).map((skill) => skill.name)).toEqual(['travel/booking']);
  });
});
