import { setTimeout as sleep } from 'node:timers/promises';
import { MockLanguageModelV3 } from 'ai/test';

/** Every key the model passes read, empty: "nothing to do" for whichever pass asks. */
const NOTHING = { toDelete: [], toSave: [], skills: [], episodes: [], preferences: [], annotations: [] };
const USAGE = { inputTokens: { total: 50, noCache: 50, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 10, text: 10, reasoning: 0 } };

/**
 * A deterministic model for the crash and concurrency tests: its reply is a function of the
 * prompt only, so every run over the same data plans the same operations.
 * - memory-consolidation: entries whose content carries the same `topic-<n>` mark are merged
 *   into one (their contents joined, so no fact is lost), all of them as sources;
 * - skill-consolidation: skills `howto/pair<n>-a` and `howto/pair<n>-b` are merged into the `-a` one;
 * - episode-extraction: one episode per session that mentions a trip;
 * - preference-inference: the user turns that ask for bullet points become one strong preference;
 * - any other pass: empty lists.
 */
export function dreamModel(options: { delayMs?: number } = {}): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (call) => {
      if (options.delayMs) await sleep(options.delayMs);
      const text = (role: string) =>
        call.prompt
          .filter((message) => message.role === role)
          .map((message) =>
            typeof message.content === 'string'
              ? message.content
              : message.content.map((part) => ('text' in part ? part.text : '')).join(''),
          )
          .join('\n');
      const system = text('system');
      const user = text('user');
      let reply: object = NOTHING;
      if (system.startsWith('You look after the long-term memory')) reply = mergeMemories(user);
      else if (system.startsWith('You tidy the skill library')) reply = mergeSkills(user);
      else if (system.startsWith('You keep the diary')) reply = tripEpisodes(user);
      else if (system.startsWith('You learn how the user')) reply = bulletPreference(user);
      return {
        content: [{ type: 'text', text: JSON.stringify(reply) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: USAGE,
        warnings: [],
      };
    },
  });
}

function mergeMemories(user: string): object {
  const groups = new Map<string, Array<{ id: string; content: string; category: string }>>();
  for (const match of user.matchAll(/^\[([^\]]+)\] \(([^)]+)\) .* : ("(?:[^"\\]|\\.)*")$/gm)) {
    const content = JSON.parse(match[3]!) as string;
    const topic = /topic-(\d+)/.exec(content)?.[1];
    if (topic === undefined) continue;
    const group = groups.get(topic) ?? [];
    group.push({ id: match[1]!, content, category: match[2]! });
    groups.set(topic, group);
  }
  const toSave = [...groups.values()]
    .filter((group) => group.length >= 2)
    .map((group) => ({
      content: group.map((entry) => entry.content).join(' Also: '),
      category: group[0]!.category,
      sourceIds: group.map((entry) => entry.id),
    }));
  return { toDelete: [], toSave };
}

function mergeSkills(user: string): object {
  const shown = new Set([...user.matchAll(/^Skill "([^"]+)":/gm)].map((match) => match[1]!));
  const bodies = new Map<string, string>();
  for (const name of shown) {
    const body = new RegExp(`content:\\n([^\\n]*howto ${escapeRegExp(name)} step[^\\n]*)`).exec(user)?.[1];
    if (body) bodies.set(name, body);
  }
  const toSave = [];
  for (const name of shown) {
    const pair = /^howto\/pair(\d+)-a$/.exec(name)?.[1];
    const other = `howto/pair${pair}-b`;
    if (pair === undefined || !shown.has(other)) continue;
    toSave.push({
      name,
      summary: `Pair ${pair}, merged.`,
      content: `${bodies.get(name) ?? ''}\n${bodies.get(other) ?? ''}`,
      sourceNames: [name, other],
    });
  }
  return { toDelete: [], toSave };
}

function tripEpisodes(user: string): object {
  const episodes = [];
  for (const session of user.split(/^(?=Session ")/m).slice(1)) {
    const header = /^Session "([^"]+)": \d+ turn\(s\) from (\d{4}-\d{2}-\d{2})/.exec(session);
    const place = /trip to (\w+)/.exec(session)?.[1];
    if (header && place)
      episodes.push({
        content: `The user came back from a trip to ${place}.`,
        when: { point: header[2] },
        tags: ['travel'],
        sessionIds: [header[1]],
      });
  }
  return { episodes };
}

function bulletPreference(user: string): object {
  const evidence = [...user.matchAll(/^#(\d+) \S+ user: ".*bullet points/gm)].map((match) => Number(match[1]));
  return {
    preferences:
      evidence.length === 0
        ? []
        : [{ content: 'The user wants answers as bullet points.', strength: 'strong', evidence, tags: ['format'] }],
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
