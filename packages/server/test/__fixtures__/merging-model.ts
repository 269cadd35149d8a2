import { MockLanguageModelV3 } from 'ai/test';

/** Every key the passes read, empty: "nothing to do" for whichever pass asks. */
const NOTHING = { toDelete: [], toSave: [], skills: [], episodes: [], preferences: [], annotations: [] };
const USAGE = {
  inputTokens: { total: 420, noCache: 420, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 60, text: 60, reasoning: 0 },
};

/** A merge the model proposes when it sees every one of `sources` (by content) among the entries it is shown. */
export interface ScriptedMerge {
  sources: string[];
  content: string;
}

/**
 * A MockLanguageModelV3 for a dream run that merges entries: the consolidation pass is answered
 * with the scripted merges whose sources it was shown (by their ids in the prompt); every other
 * pass with empty lists.
 */
export function mergingModel(merges: readonly ScriptedMerge[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (call) => {
      const text = (role: string) =>
        call.prompt
          .filter((message) => message.role === role)
          .map((message) =>
            typeof message.content === 'string'
              ? message.content
              : message.content.map((part) => ('text' in part ? part.text : '')).join(''),
          )
          .join('\n');
      const reply = text('system').startsWith('You look after the long-term memory') ? consolidate(text('user'), merges) : NOTHING;
      return {
        content: [{ type: 'text', text: JSON.stringify(reply) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: USAGE,
        warnings: [],
      };
    },
  });
}

function consolidate(prompt: string, merges: readonly ScriptedMerge[]): object {
  const shown = new Map<string, { id: string; category: string }>();
  for (const match of prompt.matchAll(/^\[([^\]]+)\] \(([^)]+)\) .* : ("(?:[^"\\]|\\.)*")$/gm)) {
    shown.set(JSON.parse(match[3]!) as string, { id: match[1]!, category: match[2]! });
  }
  const toSave = merges
    .filter((merge) => merge.sources.every((source) => shown.has(source)))
    .map((merge) => ({
      content: merge.content,
      category: shown.get(merge.sources[0]!)!.category,
      sourceIds: merge.sources.map((source) => shown.get(source)!.id),
    }));
  return { toDelete: [], toSave };
}
