import { generateText, type LanguageModel, stepCountIs } from 'ai';
import type { Reverie } from 'reverie';

const INSTRUCTIONS = 'You are a helpful assistant with a long-term memory. Save durable facts and preferences with save_memory.';

/**
 * One turn of an agent that remembers: Reverie builds the context (recalled memories, working
 * memory inventory, the last turns), the model answers with Reverie's tools at hand, and the
 * reply is recorded for the next turn and for the dream cycle.
 */
export async function agentTurn(reverie: Reverie, model: LanguageModel, sessionId: string, message: string): Promise<string> {
  const context = await reverie.context.forTurn({ sessionId, message });
  const result = await generateText({
    model,
    system: [INSTRUCTIONS, context.systemPrompt].filter(Boolean).join('\n\n'),
    messages: context.messages,
    tools: { ...reverie.tools.memory(), ...reverie.tools.workingMemory({ namespace: `session/${sessionId}` }) },
    stopWhen: stepCountIs(5),
  });
  await reverie.context.recordReply(sessionId, result.text);
  return result.text;
}
