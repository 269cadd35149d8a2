import { MockLanguageModelV3 } from 'ai/test';

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/**
 * A stand-in for a real model so the quickstart runs offline: it saves a memory when the user
 * states a preference, and otherwise answers from whatever Reverie recalled into its context.
 */
export function offlineModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'offline',
    modelId: 'scripted',
    doGenerate: async ({ prompt }) => {
      const last = prompt[prompt.length - 1]!;
      if (last.role === 'tool') {
        return {
          content: [{ type: 'text', text: 'Got it — I will remember that.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      }
      const userText = last.role === 'user' ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ') : '';
      if (/\b(always|prefer|never)\b/i.test(userText)) {
        return {
          content: [
            {
              type: 'tool-call',
              toolCallId: 'save-1',
              toolName: 'save_memory',
              input: JSON.stringify({ content: userText, category: 'user-preferences/style' }),
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      }
      const recalled = prompt
        .filter((message) => message.role === 'system')
        .flatMap((message) => message.content.split('\n'))
        .filter((line) => line.startsWith('- ['));
      // Reverie puts the profile and the session's recalled memories into every call's context.
      const answer = recalled.length > 0 ? `From memory: ${recalled.join(' ')}` : 'I do not know anything about that yet.';
      return { content: [{ type: 'text', text: answer }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
}
