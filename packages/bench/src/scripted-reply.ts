import type { MockLanguageModelV3 } from 'ai/test';

/** What a scripted model's `doGenerate` is called with, and what it answers. */
export type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
export type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

/** A scripted model's answer: `text`, finished, reporting `inputTokens` and `outputTokens` as used. */
export function textReply(text: string, inputTokens = 0, outputTokens = 0): GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
    },
    warnings: [],
  };
}
