import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, type ModelMessage, stepCountIs, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@reverie/core';
import { createReverie, type Reverie, withReverie } from 'reverie';

// SPEC M9, M11, E1, context that stays: a memory recalled in a session stays in the
// model's context on every later call of the session — whether Reverie replays the history or
// the client sends it (useChat), with generateText and streamText, in tool loops, with forTurn,
// and after a restart.

type Prompt = Parameters<MockLanguageModelV3['doGenerate']>[0]['prompt'];
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const ALLERGY = 'The user is allergic to peanuts';

const systemText = (prompt: Prompt) =>
  prompt
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n');
const conversationRoles = (prompt: Prompt) => prompt.filter((message) => message.role !== 'system').map((message) => message.role);

/** A model that answers from what its system messages say, and keeps every prompt it was sent. */
function attentiveModel(): MockLanguageModelV3 & { prompts: Prompt[] } {
  const prompts: Prompt[] = [];
  const answer = (prompt: Prompt) =>
    systemText(prompt).includes('allergic to peanuts') ? 'Apple slices with sunflower butter: no peanuts.' : 'Peanut butter cookies!';
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      return { content: [{ type: 'text', text: answer(prompt) }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
    doStream: async ({ prompt }) => {
      prompts.push(prompt);
      const text = answer(prompt);
      return {
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: text });
            controller.enqueue({ type: 'text-end', id: 't' });
            controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
            controller.close();
          },
        }),
      };
    },
  });
  return Object.assign(model, { prompts });
}

let dataPath: string;
let reverie: Reverie;
let clock: ManualClock;
const build = () => createReverie({ dataPath, clock, logger: 'silent' }).withMemory().withWorkingMemory().withConversationLog().build();
beforeEach(async () => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-session-context-'));
  clock = new ManualClock('2026-03-01T12:00:00.000Z');
  reverie = build();
  // Not a pinned category: what keeps it in context is the session memory, not the profile.
  await reverie.memory!.save({ content: ALLERGY, category: 'health' });
  await reverie.memory!.save({ content: 'The user lives in Lyon', category: 'general' });
});
afterEach(async () => {
  await reverie.close();
  rmSync(dataPath, { recursive: true, force: true });
});

const TURNS = [
  'Suggest a snack, keeping my peanut allergy in mind.',
  'Another snack idea? Remember my peanut allergy.',
  'What about something sweet for the afternoon?',
];

async function streamed(result: ReturnType<typeof streamText>): Promise<string> {
  let text = '';
  for await (const delta of result.textStream) text += delta;
  return text;
}

describe.each(['generateText', 'streamText'] as const)('the peanut allergy stays in context on every turn (%s)', (call) => {
  const ask = async (model: ReturnType<typeof withReverie>, input: { prompt: string } | { messages: ModelMessage[] }) =>
    call === 'generateText' ? (await generateText({ model, ...input })).text : await streamed(streamText({ model, ...input }));

  it('when Reverie replays the history (each call carries only the new message)', async () => {
    const base = attentiveModel();
    const model = withReverie(base, { reverie, sessionId: 'chat-1' });
    const replies = [];
    for (const prompt of TURNS) replies.push(await ask(model, { prompt }));
    expect(base.prompts).toHaveLength(3);
    for (const prompt of base.prompts) expect(systemText(prompt)).toContain(ALLERGY);
    expect(replies).toEqual(Array(3).fill('Apple slices with sunflower butter: no peanuts.'));
    expect(conversationRoles(base.prompts[2]!)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
  });

  it('when the client sends the whole history, as useChat does', async () => {
    const base = attentiveModel();
    const model = withReverie(base, { reverie, sessionId: 'chat-2' });
    const messages: ModelMessage[] = [];
    for (const text of TURNS) {
      messages.push({ role: 'user', content: text });
      const reply = await ask(model, { messages: [...messages] });
      messages.push({ role: 'assistant', content: reply });
    }
    for (const prompt of base.prompts) expect(systemText(prompt)).toContain(ALLERGY);
    // The client's history is not doubled by a replay.
    expect(conversationRoles(base.prompts[2]!)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(messages.filter((message) => message.role === 'assistant').map((message) => message.content)).toEqual(
      Array(3).fill('Apple slices with sunflower butter: no peanuts.'),
    );
  });
});

describe('the session memory in other shapes of call', () => {
  it('a tool loop: every step of a later turn sees it', async () => {
    let step = 0;
    const prompts: Prompt[] = [];
    const base = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        prompts.push(prompt);
        step += 1;
        if (step === 2) {
          const input = JSON.stringify({ query: 'snacks' });
          return {
            content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'search_memory', input }],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          };
        }
        return { content: [{ type: 'text', text: 'Rice cakes.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      },
    });
    const model = withReverie(base, { reverie, sessionId: 'loop' });
    const tools = reverie.tools.forSession('loop');
    await generateText({ model, prompt: TURNS[0]!, tools, stopWhen: stepCountIs(3) });
    await generateText({ model, prompt: 'Anything crunchy?', tools, stopWhen: stepCountIs(3) });
    expect(prompts).toHaveLength(3);
    for (const prompt of prompts) expect(systemText(prompt)).toContain(ALLERGY);
    expect(prompts[2]!.at(-1)!.role).toBe('tool');
  });

  it('forTurn by hand: systemPrompt has it on every turn, injectedIds only on the first', async () => {
    const ids = [];
    for (const message of TURNS) {
      const context = await reverie.context.forTurn({ sessionId: 'manual', message });
      expect(context.systemPrompt).toContain(ALLERGY);
      ids.push(context.injectedIds.length);
      await reverie.context.recordReply('manual', 'Apple slices.');
    }
    expect(ids).toEqual([1, 0, 0]);
  });

  it('after a restart: the session continues from the conversation log, with the allergy in context', async () => {
    const base = attentiveModel();
    await generateText({ model: withReverie(base, { reverie, sessionId: 'chat-3' }), prompt: TURNS[0]! });
    await reverie.close();
    clock.advance(10 * 60_000);
    reverie = build();
    await generateText({ model: withReverie(base, { reverie, sessionId: 'chat-3' }), prompt: TURNS[2]! });
    const after = base.prompts[1]!;
    expect(systemText(after)).toContain(ALLERGY);
    expect(after.filter((message) => message.role !== 'system').map((message) => JSON.stringify(message.content))).toEqual([
      JSON.stringify([{ type: 'text', text: TURNS[0] }]),
      JSON.stringify([{ type: 'text', text: 'Apple slices with sunflower butter: no peanuts.' }]),
      JSON.stringify([{ type: 'text', text: TURNS[2] }]),
    ]);
  });

  it('reverie.endSession(): the next turn with that id starts afresh, the log keeps the turns', async () => {
    const base = attentiveModel();
    const model = withReverie(base, { reverie, sessionId: 'chat-4' });
    await generateText({ model, prompt: TURNS[0]! });
    await reverie.endSession('chat-4');
    await generateText({ model, prompt: 'Hello again' });
    expect(conversationRoles(base.prompts[1]!)).toEqual(['user']);
    await reverie.conversation.flush();
    expect((await reverie.conversationLog!.read({ sessionId: 'chat-4' })).map((turn) => turn.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    await expect(reverie.endSession('')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('the profile is in every call', () => {
  it('a pinned preference reaches the model although the message shares no word with it', async () => {
    await reverie.memory!.save({ content: 'I am vegetarian', category: 'user-preferences/food' });
    const base = attentiveModel();
    const model = withReverie(base, { reverie, sessionId: 'profile' });
    await generateText({ model, prompt: 'What do I eat?' });
    await generateText({ model, prompt: 'And for dinner?' });
    for (const prompt of base.prompts) expect(systemText(prompt)).toContain('I am vegetarian');
  });
});
