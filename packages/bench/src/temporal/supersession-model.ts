import { MockLanguageModelV3 } from 'ai/test';
import { type CallOptions, type GenerateResult, textReply } from '../scripted-reply';

/** `[id] (category) first=… : "<content as a JSON string>"`, one entry per line. */
const ENTRY_LINE = /^\[([0-9a-f]{12})\] \(([^)]*)\) /;
const CONTENT_SEPARATOR = ' : "';

/**
 * A scripted model for `pnpm bench:temporal` that knows which fact and which version each note
 * is. For every fact with two or more versions shown in a call, it says the newest shown version
 * replaces each older one (`toSupersede`); it merges and deletes nothing. With `supersede:
 * false` it answers with empty lists: today's behaviour, every version left side by side.
 */
export class SupersessionModel {
  readonly model: MockLanguageModelV3;
  pairs = 0;

  constructor(
    private readonly versionOf: (content: string) => { fact: number; version: number } | undefined,
    private readonly supersede: boolean,
  ) {
    this.model = new MockLanguageModelV3({ doGenerate: async (options) => this.reply(options) });
  }

  private reply(options: CallOptions): GenerateResult {
    this.model.doGenerateCalls.length = 0;
    const data = options.prompt.flatMap((message) => (message.role === 'user' ? message.content : [])).find((part) => part.type === 'text');
    const shown = new Map<number, Array<{ id: string; version: number }>>();
    for (const line of (data?.type === 'text' ? data.text : '').split('\n')) {
      const match = ENTRY_LINE.exec(line);
      const at = line.indexOf(CONTENT_SEPARATOR);
      if (!match || at < 0) continue;
      const known = this.versionOf(JSON.parse(line.slice(at + CONTENT_SEPARATOR.length - 1)) as string);
      if (known) shown.set(known.fact, [...(shown.get(known.fact) ?? []), { id: match[1]!, version: known.version }]);
    }
    const toSupersede = this.supersede
      ? [...shown.values()].flatMap((members) => {
          const newest = members.reduce((best, member) => (member.version > best.version ? member : best));
          return members.filter((member) => member.version < newest.version).map((member) => ({ olderId: member.id, newerId: newest.id }));
        })
      : [];
    this.pairs += toSupersede.length;
    const text = JSON.stringify({ toDelete: [], toSave: [], toSupersede });
    return textReply(text);
  }
}
