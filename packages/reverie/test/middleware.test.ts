import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, stepCountIs, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReverie, type Reverie, withReverie } from 'reverie';
import { scriptedModel } from './scripted-model';

type Prompt = Parameters<MockLanguageModelV3['doGenerate']>[0]['prompt'];

let dataPath: string;
let reverie: Reverie;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-middleware-'));
  reverie = createReverie({ dataPath }).withMemory().withWorkingMemory().withConversationLog().build();
});
afterEach(async () => {
  await reverie.close();
  rmSync(dataPath, { recursive: true, force: true });
});

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/**
 * A model that streams `chunks` as text deltas, waiting `delayMs` before each; like a real
 * provider, its stream fails with an AbortError once the call's signal aborts.
 */
function streamingModel(chunks: string[], delayMs = 0): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: async ({ abortSignal }) => ({
      stream: new ReadableStream({
        async start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          for (const delta of chunks) {
            if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
            if (abortSignal?.aborted) return controller.error(new DOMException('aborted', 'AbortError'));
            controller.enqueue({ type: 'text-delta', id: 't', delta });
          }
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
          controller.close();
        },
      }),
    }),
  });
}

const systemTexts = (prompt: Prompt) => prompt.filter((message) => message.role === 'system').map((message) => message.content);
const loggedTurns = async () => (await reverie.conversationLog!.read()).map((turn) => `${turn.role}: ${turn.content}`);

describe('reverie.middleware / withReverie (SPEC E1)', () => {
  it('generateText: puts recalled memory into the system prompt after the caller’s, records both turns, replays them next turn', async () => {
    const saved = await reverie.memory!.save({ content: 'The user prefers metric units', category: 'user-preferences/units' });
    const base = scriptedModel(['Metric it is.', 'Still metric.']);
    const model = withReverie(base, { reverie, sessionId: 's1' });

    await generateText({ model, system: 'You are terse.', prompt: 'Which units do I prefer?' });
    const first = base.doGenerateCalls[0]!.prompt;
    expect(systemTexts(first)[0]).toBe('You are terse.');
    expect(systemTexts(first)[1]).toContain(`[${saved.id}] (user-preferences/units): The user prefers metric units`);
    expect(await loggedTurns()).toEqual(['user: Which units do I prefer?', 'assistant: Metric it is.']);

    await generateText({ model, prompt: 'And again: units?' });
    const second = base.doGenerateCalls[1]!.prompt;
    expect(systemTexts(second).join('\n')).toContain('The user prefers metric units'); // the profile (and the session memory): on every call
    expect(second.filter((message) => message.role !== 'system').map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(await loggedTurns()).toHaveLength(4);
  });

  it('does not replay history when the caller sends its own (history "auto")', async () => {
    const base = scriptedModel(['One.', 'Two.']);
    const model = withReverie(base, { reverie, sessionId: 's1' });
    await generateText({ model, prompt: 'first' });
    await generateText({
      model,
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'One.' },
        { role: 'user', content: 'second' },
      ],
    });
    expect(base.doGenerateCalls[1]!.prompt.filter((message) => message.role !== 'system')).toHaveLength(3);
  });

  it('streamText: records the streamed reply once the stream has finished', async () => {
    const base = streamingModel(['Hello', ', ', 'world.']);
    const model = withReverie(base, { reverie, sessionId: 's1' });
    const result = streamText({ model, prompt: 'Say hello' });
    let streamed = '';
    for await (const delta of result.textStream) streamed += delta;
    expect(streamed).toBe('Hello, world.');
    expect(await loggedTurns()).toEqual(['user: Say hello', 'assistant: Hello, world.']);
  });

  it('streamText aborted mid-stream: records what was produced before the abort', async () => {
    const base = streamingModel(['Once ', 'upon ', 'a ', 'time ', 'there ', 'was'], 30);
    const model = withReverie(base, { reverie, sessionId: 's1' });
    const abort = new AbortController();
    const result = streamText({ model, prompt: 'Tell a story', abortSignal: abort.signal, onError: () => {} });
    let streamed = '';
    for await (const delta of result.textStream) {
      streamed += delta;
      if (streamed === 'Once upon ') abort.abort();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const turns = await loggedTurns();
    expect(turns[0]).toBe('user: Tell a story');
    expect(turns).toHaveLength(2);
    expect(turns[1]).toMatch(/^assistant: Once upon/);
    expect(turns[1]).not.toContain('there was');
    expect(reverie.activity.isUserActive()).toBe(true); // the quiet period after the call
  });

  it('a multi-step tool loop: one user turn, one reply, the context on every step, the tool’s work saved', async () => {
    const base = scriptedModel([
      {
        toolCalls: [{ toolName: 'save_memory', input: { content: 'The user is allergic to peanuts', category: 'user-preferences/food' } }],
      },
      'Noted, no peanuts.',
    ]);
    await reverie.memory!.save({ content: 'The user lives in Lyon', category: 'project-context/home' });
    const model = withReverie(base, { reverie, sessionId: 's1' });
    const result = await generateText({
      model,
      prompt: 'Remember: I live in Lyon and I am allergic to peanuts.',
      tools: reverie.tools.forSession('s1'),
      stopWhen: stepCountIs(4),
    });

    expect(result.steps).toHaveLength(2);
    for (const call of base.doGenerateCalls) expect(systemTexts(call.prompt).join('\n')).toContain('The user lives in Lyon');
    expect(await loggedTurns()).toEqual(['user: Remember: I live in Lyon and I am allergic to peanuts.', 'assistant: Noted, no peanuts.']);
    expect((await reverie.memory!.search({ text: 'peanuts' }))[0]?.entry.content).toBe('The user is allergic to peanuts');
  });

  it('a loop stopped on a tool-call step records its text before the next turn, once', async () => {
    const base = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [
          { type: 'text', text: 'Let me note that.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'save_memory', input: JSON.stringify({ content: 'Likes tea' }) },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      }),
    });
    const model = withReverie(base, { reverie, sessionId: 's1' });
    await generateText({ model, prompt: 'I like tea', tools: reverie.tools.forSession('s1'), stopWhen: stepCountIs(1) });
    expect(await loggedTurns()).toEqual(['user: I like tea']);
    await generateText({ model, prompt: 'Anything else?', tools: reverie.tools.forSession('s1'), stopWhen: stepCountIs(1) });
    expect(await loggedTurns()).toEqual(['user: I like tea', 'assistant: Let me note that.', 'user: Anything else?']);
  });

  it('marks the user active and preempts a running dream', async () => {
    const dreamSignal = reverie.activity.userTurnSignal();
    const model = withReverie(scriptedModel(['Hi.']), { reverie, sessionId: 's1' });
    await generateText({ model, prompt: 'Hello' });
    expect(dreamSignal.aborted).toBe(true);
    expect(reverie.activity.isUserActive()).toBe(true);
  });

  it('keeps Reverie’s own model calls out of the conversation, even through a wrapped model', async () => {
    await reverie.close();
    const reply = (text: string) => ({
      content: [{ type: 'text' as const, text }],
      finishReason: { unified: 'stop' as const, raw: 'stop' },
      usage,
      warnings: [],
    });
    const base = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        const last = prompt[prompt.length - 1]!;
        if (last.role === 'tool') return reply('Saved.');
        if (JSON.stringify(last).includes('Note my watering days')) {
          const input = JSON.stringify({ content: 'I water the plants on Sundays and Wednesdays' });
          return {
            content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'save_memory', input }],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          };
        }
        return reply('{"entries":[{"content":"Waters the plants on Sundays"},{"content":"Waters the plants on Wednesdays"}]}');
      },
    });
    let wrapped: MockLanguageModelV3 | ReturnType<typeof withReverie> = base;
    // The host hands Reverie a model that ends up wrapped with the middleware itself.
    const lazy = new MockLanguageModelV3({ doGenerate: (options) => wrapped.doGenerate(options) });
    reverie = createReverie({ dataPath, model: lazy }).withMemory().withWorkingMemory().withConversationLog().build();
    wrapped = withReverie(base, { reverie, sessionId: 's1' });

    await generateText({
      model: wrapped,
      prompt: 'Note my watering days',
      tools: reverie.tools.forSession('s1'),
      stopWhen: stepCountIs(3),
    });
    await reverie.tools.idle();
    expect(base.doGenerateCalls).toHaveLength(3);
    const expansion = base.doGenerateCalls.find((call) => !JSON.stringify(call.prompt).includes('Note my watering days'));
    expect(expansion).toBeDefined(); // the background call got no turn context
    expect(await loggedTurns()).toEqual(['user: Note my watering days', 'assistant: Saved.']);
  });

  it('refuses bad options with INVALID_OPTIONS and says what to pass', () => {
    expect(() => reverie.middleware({ sessionId: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('sessionId') }),
    );
    expect(() => reverie.middleware({ sessionId: 's1', kind: 'patrol' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('patrol/<task>') }),
    );
    expect(() => reverie.middleware({ sessionId: 's1', history: 'sometimes' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(() => withReverie(scriptedModel(['x']), { sessionId: 's1' } as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('options.reverie') }),
    );
    expect(() => withReverie('openai/gpt-4.1' as never, { reverie, sessionId: 's1' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });
});
