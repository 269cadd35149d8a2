import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, stepCountIs } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReverie, type Reverie } from 'reverie';
import { scriptedModel } from './scripted-model';

let dataPath: string;
let reverie: Reverie;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-session-'));
  reverie = createReverie({ dataPath }).withMemory().withWorkingMemory().withConversationLog().build();
});
afterEach(async () => {
  await reverie.close();
  rmSync(dataPath, { recursive: true, force: true });
});

async function turn(sessionId: string, message: string, model: ReturnType<typeof scriptedModel>) {
  const context = await reverie.context.forTurn({ sessionId, message });
  const result = await generateText({
    model,
    system: context.systemPrompt,
    messages: context.messages,
    tools: { ...reverie.tools.memory(), ...reverie.tools.workingMemory({ namespace: `session/${sessionId}` }) },
    stopWhen: stepCountIs(4),
  });
  await reverie.context.recordReply(sessionId, result.text);
  return { context, result };
}

describe('an agent session with Reverie', () => {
  it('saves through the tools into the file store, and shows the saved preference on every later turn (the profile)', async () => {
    const agent = scriptedModel([
      {
        toolCalls: [
          {
            toolName: 'save_memory',
            input: { content: 'The user prefers metric units in every answer', category: 'user-preferences/units' },
          },
        ],
      },
      'Noted: metric units from now on.',
    ]);
    const first = await turn('s1', 'Please always use metric units.', agent);
    expect(first.result.text).toBe('Noted: metric units from now on.');
    const saved = await reverie.memory!.search({ text: 'metric units' });
    expect(saved).toHaveLength(1);
    const id = saved[0]!.entry.id;
    const file = join(dataPath, 'memory', 'user-preferences', 'units', `${id}.json`);
    expect(JSON.parse(readFileSync(file, 'utf8')).content).toBe('The user prefers metric units in every answer');

    const chat = scriptedModel(['Sure, in kilometres.']);
    const second = await turn('s2', 'How far is the metric marathon in units I like?', chat);
    // user-preferences/ is pinned: the profile shows it, so the session memory does not list it again.
    expect(second.context.profileIds).toEqual([id]);
    expect(second.context.injectedIds).toEqual([]);
    expect(second.context.system.join('\n')).toContain(`[${id}] (user-preferences/units): The user prefers metric units in every answer`);
    const prompt = JSON.stringify(chat.doGenerateCalls[0]!.prompt);
    expect(prompt).toContain('The user prefers metric units in every answer');

    const third = await turn('s2', 'And the half marathon?', chat);
    expect(third.context.profileIds).toEqual([id]);
    expect(JSON.stringify(chat.doGenerateCalls[1]!.prompt)).toContain('The user prefers metric units in every answer');
    expect(third.context.messages.filter((m) => m.role === 'user' || m.role === 'assistant').length).toBe(3);
  });

  it('keeps scratch work in the session namespace and logs the turns for the dream cycle', async () => {
    const agent = scriptedModel([
      { toolCalls: [{ toolName: 'save_to_working_memory', input: { key: 'draft', data: 'Dear team, the release moves to Friday.' } }] },
      { toolCalls: [{ toolName: 'save_to_working_memory', input: { key: 'session/other/draft', data: 'sneaky' } }] },
      'Draft saved.',
    ]);
    await turn('s1', 'Draft the release note and keep it around.', agent);
    expect((await reverie.workingMemory!.get('session/s1/draft'))?.value).toBe('Dear team, the release moves to Friday.');
    expect(await reverie.workingMemory!.get('session/other/draft')).toBeUndefined();
    const refused = JSON.stringify(agent.doGenerateCalls[2]!.prompt);
    expect(refused).toContain('NAMESPACE_VIOLATION');

    const next = await reverie.context.forTurn({ sessionId: 's1', message: 'Is the draft still there?' });
    const inventory = next.system.join('\n');
    expect(inventory).toContain('session/s1/draft');
    expect(inventory).not.toContain('Dear team');

    const logged = await reverie.conversationLog!.read({ sessionId: 's1' });
    expect(logged.map((t) => [t.role, t.content])).toEqual([
      ['user', 'Draft the release note and keep it around.'],
      ['assistant', 'Draft saved.'],
      ['user', 'Is the draft still there?'],
    ]);
    expect(existsSync(join(dataPath, 'logs', 'conversation.jsonl'))).toBe(true);
    expect(readdirSync(join(dataPath, 'working-memory', 'session'))).toContain('s1.json');
  });
});
