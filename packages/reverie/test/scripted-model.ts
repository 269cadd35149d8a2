import { MockLanguageModelV3 } from 'ai/test';

/** One scripted model reply: plain text, or tool calls the agent should make. */
export type ScriptedReply = string | { toolCalls: Array<{ toolName: string; input: Record<string, unknown> }> };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A finished text answer as a MockLanguageModelV3's `doGenerate` returns it. */
export function textReply(text: string) {
  return { content: [{ type: 'text' as const, text }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] };
}

/**
 * A MockLanguageModelV3 that answers with the scripted replies in order (the last one repeats),
 * so tests can drive `generateText` through tool calls offline.
 */
export function scriptedModel(replies: ScriptedReply[]): MockLanguageModelV3 {
  let call = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const reply = replies[Math.min(call, replies.length - 1)]!;
      call += 1;
      if (typeof reply === 'string') return textReply(reply);
      return {
        content: reply.toolCalls.map((toolCall, i) => ({
          type: 'tool-call' as const,
          toolCallId: `call-${call}-${i}`,
          toolName: toolCall.toolName,
          input: JSON.stringify(toolCall.input),
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}
