import { stepCountIs, streamText } from 'ai';
import { type CycleReport, type Reverie, type WrappableModel, withReverie } from 'reverie';

export const INSTRUCTIONS =
  'You are a helpful assistant with a long-term memory. Save durable facts and preferences the user tells you with save_memory; ' +
  'use what Reverie recalled for you when you answer.';

export interface ChatSession {
  /** Streams the answer to `message` through `write`, and returns it. */
  send(message: string): Promise<string>;
  /** Ends the session: waits for background work, then `reverie.endSession` (the dream cycle counts it). */
  end(): Promise<void>;
}

/**
 * One conversation. The model is wrapped with Reverie's middleware (`withReverie`): each call gets
 * the profile (pinned preferences), the session memory (everything recalled so far in the
 * session, what bears on the message first) and the session's recent turns — from the
 * conversation log after a restart —, and the turns are recorded for the next call and for the
 * dream cycle. The tools let the model save and search memory.
 */
export function chatSession(reverie: Reverie, model: WrappableModel, sessionId: string, write: (text: string) => void): ChatSession {
  const wrapped = withReverie(model, { reverie, sessionId });
  const tools = reverie.tools.forSession(sessionId);
  return {
    async send(message) {
      const result = streamText({ model: wrapped, system: INSTRUCTIONS, prompt: message, tools, stopWhen: stepCountIs(5) });
      let reply = '';
      for await (const delta of result.textStream) {
        reply += delta;
        write(delta);
      }
      return reply;
    },
    async end() {
      await reverie.idle();
      await reverie.endSession(sessionId);
    },
  };
}

/** Runs a dream cycle now and prints one line per pass. */
export async function dreamBetweenSessions(reverie: Reverie, print: (line: string) => void): Promise<CycleReport> {
  const report = await reverie.dreams.run();
  print(`~ dream ${report.runId}:`);
  for (const pass of report.passes) {
    if (pass.status === 'skipped') print(`~   · ${pass.name} — skipped: ${pass.reason}`);
    else print(`~   ${pass.status === 'ok' ? '✓' : '✗'} ${pass.name} — ${pass.applied} change(s)${pass.error ? ` — ${pass.error}` : ''}`);
  }
  return report;
}
