import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { type CallOptions, type GenerateResult, textReply } from '../scripted-reply';
import { z } from 'zod';

/**
 * One request of a recorded dream cycle and the reply it got (`exchanges/req-NNNN.json` as the
 * OpenAI-compatible endpoint received it, `resp-NNNN.txt` as a capable model answered it).
 */
export interface RecordedExchange {
  number: number;
  system: string;
  user: string;
  reply: string;
}

/** What identifies a prompt across wordings of its directive: the pass (by its reply's first key) and what it shows. */
export interface PromptKey {
  /** The first key of the JSON reply the prompt asks for (`toDelete`, `episodes`, `skills`, `preferences`…). */
  kind: string;
  /** The memory entries (`entry:<id>`) and conversation sessions (`session:<id>`) it shows, sorted. */
  shown: string[];
}

/** One model call of the recorded cycle: its first reply, and the reply to the host's repair request if it made one. */
export interface RecordedCall {
  key: PromptKey;
  first: RecordedExchange;
  repair?: RecordedExchange;
}

const requestSchema = z
  .object({
    messages: z.array(
      z.object({ role: z.string(), content: z.union([z.string(), z.array(z.object({ text: z.string().optional() }).loose())]) }).loose(),
    ),
  })
  .loose();
/** `[id] (category) …`: a memory entry line of a prompt. */
const ENTRY_LINE = /^\[([0-9a-f]{12})\] \(/gm;
/** `Session "id": …`: the heading of a session's turns. */
const SESSION_HEADING = /^Session ("(?:[^"\\]|\\.)*"):/gm;
/** The first key of the JSON shape a directive asks for. */
const REPLY_SHAPE = /\{"([A-Za-z]+)"/;

/** The key of a prompt (see `PromptKey`): its system text names the reply's shape, its user text shows the entries and sessions. Pure. */
export function promptKey(system: string, user: string): PromptKey {
  const shown = new Set<string>();
  for (const match of user.matchAll(ENTRY_LINE)) shown.add(`entry:${match[1]}`);
  for (const match of user.matchAll(SESSION_HEADING)) shown.add(`session:${JSON.parse(match[1]!) as string}`);
  return { kind: REPLY_SHAPE.exec(system)?.[1] ?? REPLY_SHAPE.exec(user)?.[1] ?? '', shown: [...shown].sort() };
}

/**
 * The prompts a repair request answers: of `open` (earlier prompts of its pass that no repair
 * answered yet), those that showed something it shows, when together they showed everything it
 * shows; none when it shows nothing or something none of them did (a first prompt). Pure.
 */
export function repairedBy<T>(shown: readonly string[], open: readonly T[], shownBy: (prompt: T) => ReadonlySet<string>): T[] {
  const repaired = open.filter((prompt) => shown.some((item) => shownBy(prompt).has(item)));
  const covered = shown.length > 0 && shown.every((item) => repaired.some((prompt) => shownBy(prompt).has(item)));
  return covered ? repaired : [];
}

function sameKey(a: PromptKey, b: PromptKey): boolean {
  return a.kind === b.kind && a.shown.length === b.shown.length && a.shown.every((item, i) => item === b.shown[i]);
}

/** The exchanges of a recorded cycle's `exchanges/` folder, in the order they were made. */
export function loadRecordedExchanges(folder: string): RecordedExchange[] {
  const numbers = readdirSync(folder)
    .map((name) => /^req-(\d+)\.json$/.exec(name)?.[1])
    .filter((number): number is string => number !== undefined)
    .sort();
  return numbers.flatMap((number) => {
    const reply = join(folder, `resp-${number}.txt`);
    if (!existsSync(reply)) return [];
    const request = requestSchema.parse(JSON.parse(readFileSync(join(folder, `req-${number}.json`), 'utf8')));
    const textOf = (role: string) =>
      request.messages
        .filter((message) => message.role === role)
        .map((message) => (typeof message.content === 'string' ? message.content : message.content.map((part) => part.text ?? '').join('')))
        .join('\n');
    return [{ number: Number(number), system: textOf('system'), user: textOf('user'), reply: readFileSync(reply, 'utf8') }];
  });
}

/**
 * The recorded exchanges as calls: an exchange that shows only what earlier calls of the same
 * pass showed, none of them answered by a repair yet, is the host's repair request of those calls
 * (the one before it, or — a request for the refused items of several calls — each call it shows
 * entries of). Pure.
 */
export function recordedCalls(exchanges: readonly RecordedExchange[]): RecordedCall[] {
  const calls: RecordedCall[] = [];
  for (const exchange of exchanges) {
    const key = promptKey(exchange.system, exchange.user);
    const open: RecordedCall[] = [];
    for (const call of [...calls].reverse()) {
      if (call.repair || call.key.kind !== key.kind) break;
      open.push(call);
    }
    const repaired = repairedBy(key.shown, open, (call) => new Set(call.key.shown));
    if (repaired.length > 0) for (const call of repaired) call.repair = exchange;
    else calls.push({ key, first: exchange });
  }
  return calls;
}

/** One proposal of a recorded consolidation reply, with the entry ids it refers to. */
interface Proposal {
  list: 'toDelete' | 'toSave' | 'toSupersede';
  ids: string[];
  item: unknown;
}

const consolidationReplySchema = z
  .object({
    toDelete: z.array(z.string()).default([]),
    toSave: z.array(z.object({ sourceIds: z.array(z.string()).optional() }).loose()).default([]),
    toSupersede: z.array(z.object({ olderId: z.string(), newerId: z.string() }).loose()).default([]),
  })
  .loose();

/** The proposals of a consolidation reply (none when it holds no such JSON object). Pure. */
export function proposalsOf(reply: string): Proposal[] {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end < start) return [];
  let parsed: z.infer<typeof consolidationReplySchema>;
  try {
    parsed = consolidationReplySchema.parse(JSON.parse(reply.slice(start, end + 1)));
  } catch {
    return [];
  }
  return [
    ...[...new Set(parsed.toDelete)].map((id): Proposal => ({ list: 'toDelete', ids: [id], item: id })),
    ...parsed.toSave.map((item): Proposal => ({ list: 'toSave', ids: item.sourceIds ?? [], item })),
    ...parsed.toSupersede.map((item): Proposal => ({ list: 'toSupersede', ids: [item.olderId, item.newerId], item })),
  ];
}

/** A reply item without the `item` number a repair reply gives it. Pure. */
function withoutItemNumber(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || !('item' in item)) return item;
  const { item: _number, ...rest } = item as Record<string, unknown>;
  return rest;
}

/** A consolidation reply of `proposals`, in the reply contract's shape. Pure. */
export function consolidationReply(proposals: readonly Proposal[]): string {
  const of = (list: Proposal['list']) => proposals.filter((proposal) => proposal.list === list).map((proposal) => proposal.item);
  return JSON.stringify({ toDelete: of('toDelete'), toSave: of('toSave'), toSupersede: of('toSupersede') });
}

/** What the recorded model was asked and what it answered, per request. */
export interface ReplayedRequest {
  key: PromptKey;
  /** The recorded calls it was answered from, by the number of their first exchange. */
  calls: number[];
  /** `first`: from the calls' first replies; `repair`: from their replies to the repair request; `none`: no recording matched. */
  answer: 'first' | 'repair' | 'none';
  /** Consolidation: how many recorded proposals the reply holds. */
  proposals: number;
  inputTokens: number;
  outputTokens: number;
}

/** The reply's first key that marks a consolidation prompt. */
const CONSOLIDATION_KIND = 'toDelete';

/**
 * A scripted language model that replays a recorded dream cycle, so that today's directives and
 * guards can be measured on a real model's replies (SPEC B11). Prompts are matched by what they
 * show, never by their whole text, which changes with the directive:
 * - a consolidation prompt gets the recorded proposals whose entries it shows, all of them (a
 *   deletion its entry, a merge all its sources, a supersession both entries), each proposal
 *   once: the host may pack entries into calls differently than when the cycle was recorded,
 *   and a proposal is replayed in the call that shows what it is about;
 * - a prompt that shows only what earlier consolidation prompts showed is the host's repair
 *   request of those calls (one, or several: the host asks once per pass): it gets, of those
 *   entries, the proposals of the recorded replies to the repair requests of the calls they were
 *   answered from (their first replies where none was recorded);
 * - any other prompt gets the recorded reply of the call of its pass that showed the same
 *   sessions and entries, else the one that showed most of them, each once;
 * - a prompt nothing matches gets an empty object of the asked shape (`{"toDelete": []}`).
 * Usage is counted as the recording's endpoint counted it: the request body's characters / 4 in,
 * the reply's characters / 4 out.
 */
export class RecordedModel {
  readonly model: MockLanguageModelV3;
  readonly requests: ReplayedRequest[] = [];
  private readonly calls: RecordedCall[];
  /** Per recorded consolidation call: its first reply's proposals and its repair reply's. */
  private readonly proposals = new Map<RecordedCall, { first: Proposal[]; repair: Proposal[] }>();
  private readonly usedFirst = new Set<Proposal>();
  private readonly usedRepair = new Set<Proposal>();
  private readonly answered = new Set<RecordedCall>();
  /** Consolidation prompts answered with first replies, latest last: what they showed, the calls they drew on, repaired yet. */
  private readonly consolidations: Array<{ shown: Set<string>; calls: RecordedCall[]; repaired: boolean }> = [];

  constructor(exchanges: readonly RecordedExchange[]) {
    this.calls = recordedCalls(exchanges);
    for (const call of this.calls) {
      if (call.key.kind !== CONSOLIDATION_KIND) continue;
      const first = proposalsOf(call.first.reply);
      // A repair request may have covered several calls: each keeps the replacements of its own entries.
      const own = new Set(call.key.shown);
      const repair = call.repair
        ? proposalsOf(call.repair.reply).filter((proposal) => proposal.ids.every((id) => own.has(`entry:${id}`)))
        : first;
      this.proposals.set(call, { first, repair });
    }
    this.model = new MockLanguageModelV3({ doGenerate: async (options) => this.reply(options) });
  }

  /** The recorded calls, in the order they were made. */
  get recorded(): readonly RecordedCall[] {
    return this.calls;
  }

  /** The recorded first replies' proposals no prompt has been answered with yet. */
  get unreplayed(): number {
    return [...this.proposals.values()].reduce(
      (sum, { first }) => sum + first.filter((proposal) => !this.usedFirst.has(proposal)).length,
      0,
    );
  }

  /** The recorded first replies' proposals, all of them. */
  get recordedProposals(): number {
    return [...this.proposals.values()].reduce((sum, { first }) => sum + first.length, 0);
  }

  private reply(options: CallOptions): GenerateResult {
    // The mock keeps every call's options; the replay keeps its own summary instead.
    this.model.doGenerateCalls.length = 0;
    const messages: Array<{ role: string; content: string }> = options.prompt.map((message) => ({
      role: message.role,
      content:
        typeof message.content === 'string'
          ? message.content
          : message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    }));
    const system = messages
      .filter((message) => message.role === 'system')
      .map((message) => message.content)
      .join('\n');
    const user = messages
      .filter((message) => message.role === 'user')
      .map((message) => message.content)
      .join('\n');
    const key = promptKey(system, user);
    const answer = key.kind === CONSOLIDATION_KIND ? this.consolidation(key) : this.other(key);
    const text = answer.text ?? JSON.stringify({ [key.kind || CONSOLIDATION_KIND]: [] });
    const inputTokens = Math.ceil(JSON.stringify({ model: 'recorded', messages }).length / 4);
    const outputTokens = Math.ceil(text.length / 4);
    this.requests.push({
      key,
      calls: answer.calls.map((call) => call.first.number),
      answer: answer.answer,
      proposals: answer.proposals,
      inputTokens,
      outputTokens,
    });
    return textReply(text, inputTokens, outputTokens);
  }

  private consolidation(key: PromptKey): {
    text: string | undefined;
    calls: RecordedCall[];
    answer: ReplayedRequest['answer'];
    proposals: number;
  } {
    const shown = new Set(key.shown.map((item) => item.slice('entry:'.length)));
    const within = (proposal: Proposal) => proposal.ids.length > 0 && proposal.ids.every((id) => shown.has(id));
    // The host's repair request shows only entries that first prompts showed, of one call or of several.
    const earlier = repairedBy(
      [...shown],
      this.consolidations.filter((asked) => !asked.repaired),
      (asked) => asked.shown,
    );
    if (earlier.length > 0) {
      const calls = [...new Set(earlier.flatMap((asked) => asked.calls))];
      for (const asked of earlier) asked.repaired = true;
      const picked = calls.flatMap((call) =>
        this.proposals.get(call)!.repair.filter((proposal) => within(proposal) && !this.usedRepair.has(proposal)),
      );
      for (const proposal of picked) this.usedRepair.add(proposal);
      // A replacement's item number is the recorded call's; the host binds it by its sources instead.
      const unnumbered = picked.map((proposal) => ({ ...proposal, item: withoutItemNumber(proposal.item) }));
      return { text: consolidationReply(unnumbered), calls, answer: 'repair', proposals: picked.length };
    }
    const calls: RecordedCall[] = [];
    const picked: Proposal[] = [];
    for (const [call, { first }] of this.proposals) {
      const taken = first.filter((proposal) => within(proposal) && !this.usedFirst.has(proposal));
      if (taken.length === 0) continue;
      calls.push(call);
      picked.push(...taken);
    }
    for (const proposal of picked) this.usedFirst.add(proposal);
    this.consolidations.push({ shown, calls, repaired: false });
    return calls.length === 0
      ? { text: undefined, calls, answer: 'none', proposals: 0 }
      : { text: consolidationReply(picked), calls, answer: 'first', proposals: picked.length };
  }

  private other(key: PromptKey): { text: string | undefined; calls: RecordedCall[]; answer: ReplayedRequest['answer']; proposals: number } {
    const candidates = this.calls.filter((call) => call.key.kind === key.kind && !this.answered.has(call));
    const overlap = (call: RecordedCall) => call.key.shown.filter((item) => key.shown.includes(item)).length;
    const call =
      candidates.find((candidate) => sameKey(candidate.key, key)) ??
      candidates.filter((candidate) => overlap(candidate) > 0).sort((a, b) => overlap(b) - overlap(a))[0];
    if (!call) return { text: undefined, calls: [], answer: 'none', proposals: 0 };
    this.answered.add(call);
    return { text: call.first.reply, calls: [call], answer: 'first', proposals: 0 };
  }
}
