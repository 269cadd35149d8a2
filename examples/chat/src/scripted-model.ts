import { MockLanguageModelV3 } from 'ai/test';

type StreamPart = { type: string; [key: string]: unknown };

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

function streamOf(parts: StreamPart[]): ReadableStream<never> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part as never);
      controller.close();
    },
  });
}

function textParts(text: string): StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...text.split(/(?<= )/).map((delta) => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ];
}

let calls = 0;
let ideas = 0;

const IDEAS = ['roasted chickpeas and an apple', 'dark chocolate with dried apricots', 'rice cakes with sunflower-seed butter'];

/**
 * A stand-in for a real chat model, so the example runs offline: a message that asks it to
 * remember something becomes a save_memory call (an allergy under `health`, anything else under
 * `user-preferences/chat`); a request for an idea is answered peanut-free only when its context
 * says the user is allergic to peanuts; anything else is answered from the memories Reverie put
 * into the system prompt (lines such as `- [id] (category): content`).
 */
export function scriptedChatModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'offline',
    modelId: 'scripted-chat',
    doStream: async ({ prompt }) => {
      const last = prompt[prompt.length - 1]!;
      if (last.role === 'tool') return { stream: streamOf(textParts('Noted — I will remember that.')) };
      const said = last.role === 'user' ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ') : '';
      const note = /^(?:also\s+)?remember:?\s*(.+)$/i.exec(said.trim())?.[1];
      if (note) {
        calls += 1;
        const input = JSON.stringify({ content: note, category: /allergic/i.test(note) ? 'health' : 'user-preferences/chat' });
        return {
          stream: streamOf([
            { type: 'stream-start', warnings: [] },
            { type: 'tool-call', toolCallId: `save-${calls}`, toolName: 'save_memory', input },
            { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
          ]),
        };
      }
      const recalled = prompt
        .filter((message) => message.role === 'system')
        .flatMap((message) => message.content.split('\n'))
        .filter((line) => line.startsWith('- ['))
        .map((line) => line.replace(/^- \[[0-9a-f]+\] \([^)]*\): /, ''));
      if (/\b(snack|sweet|idea)\b/i.test(said)) {
        const allergic = recalled.some((line) => /allergic to peanuts/i.test(line));
        const idea = IDEAS[ideas++ % IDEAS.length]!;
        return {
          stream: streamOf(
            textParts(allergic ? `How about ${idea}? No peanuts: you are allergic to them.` : 'How about a peanut butter bar?'),
          ),
        };
      }
      const answer = recalled.length > 0 ? `From memory: ${recalled.join(' ')}` : 'I do not know anything about that yet.';
      return { stream: streamOf(textParts(answer)) };
    },
  });
}
