import { MockLanguageModelV3 } from 'ai/test';

/** The whole text of a request (system and user messages), as the model reads it. */
export function promptText(prompt: unknown): string {
  const parts: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (typeof record.text === 'string') parts.push(record.text);
      if (typeof record.content === 'string') parts.push(record.content);
      Object.values(record).forEach(visit);
    }
  };
  visit(prompt);
  return parts.join('\n');
}

/** A model that answers each request with `answer(text of the request)`: a string as is, anything else as JSON. */
export function textModel(answer: (prompt: string) => unknown): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const reply = answer(promptText(options.prompt));
      return {
        content: [{ type: 'text', text: typeof reply === 'string' ? reply : JSON.stringify(reply) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } },
        warnings: [],
      };
    },
  });
}
