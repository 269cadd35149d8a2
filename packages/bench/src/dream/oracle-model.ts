import { MockLanguageModelV3 } from 'ai/test';
import { type CallOptions, type GenerateResult, textReply } from '../scripted-reply';

/** What one call showed the oracle and what it answered. */
export interface OracleCall {
  /** Characters of the whole prompt (system, user and assistant text) / 4, rounded up. */
  inputTokens: number;
  outputTokens: number;
  entriesShown: number;
  /** Planted facts with members in this call: fact → the ids shown. */
  facts: Map<number, string[]>;
  /** Saves in the reply (one per planted fact with two or more members shown). */
  merges: number;
  /** The oracle's own time for this call. */
  ms: number;
}

/** `[id] (category) first=… last=… reinforced=…× … : "<content as a JSON string>"`, one entry per line. */
const ENTRY_LINE = /^\[([0-9a-f]{12})\] \(([^)]*)\) /;
const CONTENT_SEPARATOR = ' : "';

/**
 * A scripted model that knows the planted answers (the "oracle"). For each call it reads the
 * entry lines of the user prompt, looks their content up among the planted facts, and for every
 * fact with two or more members in this call replies with one save: the longest member's wording
 * (every wording carries the same name and value, so no fact token is lost), that member's
 * category, and all the members as sourceIds. It never deletes and never touches look-alikes or
 * background entries. Usage is reported as prompt characters / 4 (the pass's own estimate) and
 * the reply's characters / 4. The oracle answers instantly: its own time is a few milliseconds
 * per call at most.
 */
export class OracleModel {
  readonly model: MockLanguageModelV3;
  readonly calls: OracleCall[] = [];

  constructor(private readonly factOf: (content: string) => number | undefined) {
    this.model = new MockLanguageModelV3({ doGenerate: async (options) => this.reply(options) });
  }

  private reply(options: CallOptions): GenerateResult {
    const started = performance.now();
    // The mock records every call's options, whole prompts included; the oracle keeps its own
    // summary of each call (`calls`), so it drops them: an agent's process holds no prompt once
    // the call is over, and neither does the benchmark's.
    this.model.doGenerateCalls.length = 0;
    let characters = 0;
    let data: string | undefined;
    for (const message of options.prompt) {
      if (message.role === 'system') {
        characters += message.content.length;
        continue;
      }
      for (const part of message.content) {
        if (part.type !== 'text') continue;
        characters += part.text.length;
        if (message.role === 'user' && data === undefined) data = part.text;
      }
    }

    const shown = new Map<number, Array<{ id: string; category: string; content: string }>>();
    let entriesShown = 0;
    for (const line of (data ?? '').split('\n')) {
      const match = ENTRY_LINE.exec(line);
      const at = line.indexOf(CONTENT_SEPARATOR);
      if (!match || at < 0) continue;
      entriesShown++;
      const content = JSON.parse(line.slice(at + CONTENT_SEPARATOR.length - 1)) as string;
      const fact = this.factOf(content);
      if (fact === undefined) continue;
      shown.set(fact, [...(shown.get(fact) ?? []), { id: match[1]!, category: match[2]!, content }]);
    }

    const toSave = [...shown.values()]
      .filter((members) => members.length >= 2)
      .map((members) => {
        const longest = members.reduce((best, member) => (member.content.length > best.content.length ? member : best));
        return { content: longest.content, category: longest.category, sourceIds: members.map((member) => member.id) };
      });
    const text = JSON.stringify({ toDelete: [], toSave });
    const inputTokens = Math.ceil(characters / 4);
    const outputTokens = Math.ceil(text.length / 4);
    this.calls.push({
      inputTokens,
      outputTokens,
      entriesShown,
      facts: new Map([...shown].map(([fact, members]) => [fact, members.map((member) => member.id)])),
      merges: toSave.length,
      ms: performance.now() - started,
    });
    return textReply(text, inputTokens, outputTokens);
  }
}
