// Just over 400 lines: the order of one turn's reads (profile, session memory, recall) and what each
// session keeps between turns are read together; ranking, fitting and rendering are pure functions
// in files of their own.
import type { ModelMessage } from 'ai';
import { z } from 'zod';
import {
  DEFAULT_DECAY_OPTIONS,
  type DecayOptions,
  heldAt,
  holdsNow,
  type IClock,
  type ILogger,
  type ILongTermMemory,
  type IWorkingMemory,
  MAX_SEARCH_TEXT_LENGTH,
  type MemoryEntry,
  type MemorySearchResult,
  parseRecord,
  ReverieValidationError,
  sessionIdSchema,
  type TimeInput,
  timestampSchema,
  type WorkingMemoryEntry,
} from '@reverie/core';
import { pathNameProblem, toStorableText, WORKING_MEMORY_KEY_RULES } from '@reverie/core/internal';
import type { ConversationMemory, RecordedTurn } from '../conversation/conversation-memory';
import type { RecallRecorder } from '../dreaming/recall-event-log';
import { recallSearch } from '../recall/recall-search';
import { searchOutsideSystem } from '../recall/search-outside-system';
import type { ContextOptions } from './context-options';
import { fitTokenBudget } from './fit-token-budget';
import { rankProfile } from './rank-profile';
import { rankSessionMemory } from './rank-session-memory';
import {
  INVENTORY_TITLES,
  PROFILE_TITLE,
  renderInventory,
  renderMemoryLine,
  renderMemorySection,
  SESSION_MEMORY_TITLE,
} from './render-context';
import { SessionRecall } from './session-recall';

export type TurnKind = 'user' | 'patrol' | 'subagent';

export interface TurnInput {
  sessionId: string;
  message: string;
  /** Who is speaking (default `'user'`). Patrol and subagent turns see only their own namespace. */
  kind?: TurnKind;
  /**
   * The caller's working-memory namespace. Defaults to `session/<sessionId>` for user turns;
   * required for patrol (`patrol/<task>`) and subagent (`subagent/<task>`) turns.
   */
  namespace?: string;
  /**
   * Recall memory as it stood at this instant (SPEC B9): the facts that held then, none noted
   * later. Default: the facts that hold now (superseded and ended ones left out).
   */
  asOf?: TimeInput;
  /**
   * Whether `messages` replays the session's recent turns before the new message (default
   * true); false when the caller sends the history itself (as `useChat` does).
   */
  replay?: boolean;
}

export interface TurnContext {
  /**
   * The context sections in order (SPEC M11): the profile, the session memory, the own
   * working-memory inventory, patrol findings, subagent outlines (empty ones left out).
   */
  system: string[];
  /**
   * The sections joined into one text for the `system` option of `generateText`, after the
   * host's own instructions: `system: [instructions, context.systemPrompt].join('\n\n')`.
   */
  systemPrompt: string;
  /** The replayed turns (oldest first; none with `replay: false`), then the new user message: the `messages` option. */
  messages: ModelMessage[];
  /**
   * Ids of the long-term memory entries this turn recalled for the first time in the session
   * and shows in its session memory (the delta rule: what is new, not what the model sees).
   */
  injectedIds: string[];
  /** Ids of every entry of the session memory section, in its order: recalled this turn or earlier in the session. */
  sessionMemoryIds: string[];
  /** Ids of the entries of the profile section (the pinned categories), in its order. */
  profileIds: string[];
}

export interface TurnContextServices {
  memory?: ILongTermMemory | undefined;
  workingMemory?: IWorkingMemory | undefined;
  conversation: ConversationMemory;
  clock: IClock;
  logger: ILogger;
  options: ContextOptions;
  /** Told what each recall search returned (SPEC O4); never awaited, never slows the turn. */
  recall?: RecallRecorder | undefined;
  /** Recall searches a second time for the names of the best hit (`withMemory({ secondHop })`, see `recallSearch`). */
  secondHop?: boolean;
  /** SPEC D7: how importance fades, for the profile's order (default: core's defaults). */
  decay?: DecayOptions | undefined;
  /** Told of each completed exchange and each ended session of a user (fact extraction, `withMemory({ extract })`); never awaited. */
  observer?: ConversationObserver | undefined;
}

/** What hears about a user's conversation as it goes, off the turn's path. */
export interface ConversationObserver {
  /** A user message (or several) and the reply to it were recorded. */
  exchangeRecorded(sessionId: string, turns: readonly RecordedTurn[]): void;
  /** A user session ended — `endSession`, or idle for `sessionIdleTimeout` — with the turns it held. */
  sessionEnded(sessionId: string, turns: readonly RecordedTurn[]): void;
}

const MAX_MESSAGE_LENGTH = 1_000_000;
/** Entries of one pinned category read for the profile, the most important first; the budget takes what fits. */
const PROFILE_CANDIDATES_PER_CATEGORY = 50;
/** The first segment a namespace must have, per kind of turn (SPEC M7). */
const NAMESPACE_ROOT: Record<TurnKind, string> = { user: 'session', patrol: 'patrol', subagent: 'subagent' };
const NAMESPACE_RULES = { ...WORKING_MEMORY_KEY_RULES, minSegments: 2 };

/** What `forTurn` accepts; the middleware checks its options against it up front. */
export const turnInputSchema = z
  .object({
    sessionId: sessionIdSchema,
    message: z.string().max(MAX_MESSAGE_LENGTH, `a message is at most ${MAX_MESSAGE_LENGTH} characters`),
    kind: z.enum(['user', 'patrol', 'subagent']).default('user'),
    namespace: z.string().optional(),
    asOf: timestampSchema.optional(),
    replay: z.boolean().default(true),
  })
  .strict()
  .superRefine((input, ctx) => {
    const root = NAMESPACE_ROOT[input.kind];
    if (input.namespace === undefined) {
      if (input.kind !== 'user') {
        ctx.addIssue({
          code: 'custom',
          path: ['namespace'],
          message: `a ${input.kind} turn needs its namespace, such as "${root}/<task>"`,
        });
      }
      return;
    }
    const problem = namespaceProblem(input.namespace, root);
    if (problem) ctx.addIssue({ code: 'custom', path: ['namespace'], message: problem });
  });

const replyInputSchema = z.object({
  sessionId: sessionIdSchema,
  content: z.string().max(MAX_MESSAGE_LENGTH, `a reply is at most ${MAX_MESSAGE_LENGTH} characters`),
  ephemeral: z.boolean().optional(),
});

/**
 * Assembles what the model sees on each turn (SPEC M9, M11):
 * - the profile: entries of the pinned categories (`user-preferences/`, `anti-patterns/`), on
 *   every call, the most important first, within its token budget;
 * - the session memory: every entry recalled so far in the session — by this message's search
 *   (top `recallResults`; on a first turn with no match, a few entries anyway) or an earlier one
 *   — those that bear on this message first, within its token budget, each entry once. The
 *   delta rule says which of them are new (`injectedIds`); it no longer hides the others, since
 *   a replayed history does not carry what earlier turns were shown;
 * - the inventory of the caller's working memory (keys and expiry, never values), for user turns
 *   also patrol findings and subagent research outlines;
 * then the last turns of the session — restored from the conversation log for a session this
 * process does not hold — and the new message, which it records.
 */
export class TurnContextBuilder {
  /** Per session: what it has recalled (the delta rule and the session memory). */
  private readonly sessions = new Map<string, SessionRecall>();

  constructor(private readonly services: TurnContextServices) {}

  /** The context for a new message; records the message in the session's conversation. */
  async forTurn(input: TurnInput): Promise<TurnContext> {
    const turn = parseRecord(turnInputSchema, input, 'turn input');
    const { memory, workingMemory, conversation, clock, logger, options } = this.services;
    // The message is kept whatever characters it holds: a lone surrogate or a NUL would make the log and the search refuse it.
    const message = toStorableText(turn.message);
    this.expireIdle();
    const namespace = workingMemory ? (turn.namespace ?? userNamespace(turn.sessionId)) : undefined;
    await conversation.restore(turn.sessionId);
    let session = this.sessions.get(turn.sessionId);
    const restored = session === undefined && conversation.size(turn.sessionId) > 0;
    if (session === undefined || !conversation.has(turn.sessionId)) {
      session = new SessionRecall();
      this.sessions.set(turn.sessionId, session);
    }
    session.turn += 1;
    const turnNumber = session.turn;
    const firstTurn = conversation.size(turn.sessionId) === 0 && session.entries().length === 0;

    // The searches, the reads of held entries and of working memory do not depend on each other: they run together.
    const none: Promise<WorkingMemoryEntry[]> = Promise.resolve([]);
    const wm = workingMemory && namespace !== undefined ? workingMemory : undefined;
    const replay = turn.replay ? conversation.recent(turn.sessionId, options.replayTurns) : [];
    const [hits, earlier, current, pinned, own, patrol, outlines] = await Promise.all([
      memory ? this.recall(memory, message, firstTurn, turn.asOf) : Promise.resolve([]),
      memory && restored
        ? this.recallForRestored(memory, conversation.recent(turn.sessionId, options.replayTurns), turn.asOf)
        : Promise.resolve([]),
      memory ? this.currentVersions(memory, session, turn.asOf) : Promise.resolve(new Map<string, MemoryEntry | undefined>()),
      memory ? this.profile(memory, turn.asOf) : Promise.resolve([]),
      wm ? wm.list(namespace) : none,
      wm && turn.kind === 'user' ? wm.list('patrol') : none,
      wm && turn.kind === 'user' ? wm.list('subagent').then((entries) => entries.filter(isResearchIndex)) : none,
    ]);
    session.refresh(current);
    // Entries shown before a restart are not new to the session.
    session.recall(earlier, 0);
    const fresh = new Set(session.recall(hits, turnNumber));

    const now = clock.now();
    const profile = fitTokenBudget(
      rankProfile(pinned, now, this.services.decay ?? DEFAULT_DECAY_OPTIONS),
      renderMemoryLine,
      options.profile.tokenBudget,
    );
    const inProfile = new Set(profile.map((entry) => entry.id));
    const ranked = rankSessionMemory(
      session.entries(),
      hits.map((entry) => entry.id),
    ).filter((entry) => !inProfile.has(entry.id));
    const sessionMemory = fitTokenBudget(ranked, renderMemoryLine, options.sessionMemory.tokenBudget);

    const system: string[] = [];
    pushSection(system, renderMemorySection(PROFILE_TITLE, profile));
    pushSection(system, renderMemorySection(SESSION_MEMORY_TITLE, sessionMemory));
    if (wm) {
      pushSection(system, renderInventory(INVENTORY_TITLES.own, own, now));
      pushSection(system, renderInventory(INVENTORY_TITLES.patrol, patrol, now));
      pushSection(system, renderInventory(INVENTORY_TITLES.subagent, outlines, now));
    }
    session.kind = turn.kind;
    session.exchange.push(conversation.record(turn.sessionId, 'user', message));
    const injectedIds = sessionMemory.filter((entry) => fresh.has(entry.id)).map((entry) => entry.id);
    logger.debug('Built the context of a turn.', {
      sessionId: turn.sessionId,
      kind: turn.kind,
      profile: profile.length,
      sessionMemory: sessionMemory.length,
      injected: injectedIds.length,
      replayed: replay.length,
    });
    return {
      system,
      systemPrompt: system.join('\n\n'),
      messages: [...replay.map(toModelMessage), { role: 'user', content: message }],
      injectedIds,
      sessionMemoryIds: sessionMemory.map((entry) => entry.id),
      profileIds: profile.map((entry) => entry.id),
    };
  }

  /**
   * Records the assistant's reply. `ephemeral` replies (dream runs, SPEC D16) stay out of the
   * conversation log. Like `forTurn`, it does not wait for the log (`reverie.conversation.flush()` does).
   */
  async recordReply(sessionId: string, content: string, options: { ephemeral?: boolean } = {}): Promise<void> {
    const reply = parseRecord(replyInputSchema, { sessionId, content, ephemeral: options?.ephemeral }, 'reply');
    const recorded = this.services.conversation.record(reply.sessionId, 'assistant', reply.content, {
      ephemeral: reply.ephemeral ?? false,
    });
    const session = this.sessions.get(reply.sessionId);
    if (!session || reply.ephemeral || session.exchange.length === 0) return;
    const exchange = [...session.exchange, recorded];
    session.exchange = [];
    if (session.kind === 'user') this.services.observer?.exchangeRecorded(reply.sessionId, exchange);
  }

  /**
   * SPEC M9: ends a session — forgets which entries it recalled and its replayable turns (turns
   * already in the conversation log stay there, and are not restored for a later turn with the
   * same id, which starts afresh). Sessions also end by themselves after `sessionIdleTimeout`.
   */
  endSession(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    const turns = this.services.conversation.endSession(sessionId);
    if (session?.kind === 'user' && turns.length > 0) this.services.observer?.sessionEnded(sessionId, turns);
  }

  /**
   * SPEC M9: ends the sessions idle for `sessionIdleTimeout` and returns their ids. Runs on a
   * timer and before each turn; call it to sweep now.
   */
  expireIdle(): string[] {
    const expired = this.services.conversation.expireIdle();
    for (const { sessionId, turns } of expired) {
      const session = this.sessions.get(sessionId);
      this.sessions.delete(sessionId);
      if (session?.kind === 'user' && turns.length > 0) this.services.observer?.sessionEnded(sessionId, turns);
    }
    return expired.map(({ sessionId }) => sessionId);
  }

  /**
   * The top entries for the message. On a session's first turn, when nothing matches, the first
   * entries of a browse instead.
   */
  private async recall(memory: ILongTermMemory, message: string, firstTurn: boolean, asOf: string | undefined): Promise<MemoryEntry[]> {
    const { recallResults, firstTurnFallback } = this.services.options;
    const search = searchOutsideSystem(recallSearch(memory, this.services.secondHop ?? false));
    // Per-turn recall reads the hot tier only (SPEC B13): it costs in proportion to the hot set.
    const when = asOf === undefined ? { tiers: 'hot' as const } : { asOf, tiers: 'hot' as const };
    let found: MemorySearchResult[] = [];
    if (message.trim() !== '') {
      found = await search({ text: toStorableText(message.slice(0, MAX_SEARCH_TEXT_LENGTH)), ...when, maxResults: recallResults });
      this.services.recall?.record(
        found.map(({ entry, score }) => ({ entryId: entry.id, score })),
        'turn',
      );
    }
    // The browse fallback is not a recall: it matched nothing, so it records nothing.
    if (found.length === 0 && firstTurn && firstTurnFallback > 0) found = await search({ ...when, maxResults: firstTurnFallback });
    return found.map((result) => result.entry);
  }

  /**
   * For a session restored from the conversation log: what its replayed user messages recall
   * (one search with them, the latest first), standing in for what it was shown before the restart.
   */
  private async recallForRestored(
    memory: ILongTermMemory,
    turns: readonly RecordedTurn[],
    asOf: string | undefined,
  ): Promise<MemoryEntry[]> {
    const text = turns
      .filter((turn) => turn.role === 'user')
      .map((turn) => turn.content)
      .reverse()
      .join('\n')
      .slice(0, MAX_SEARCH_TEXT_LENGTH);
    if (text.trim() === '') return [];
    const search = searchOutsideSystem(recallSearch(memory, this.services.secondHop ?? false));
    const found = await search({
      text,
      ...(asOf === undefined ? {} : { asOf }),
      tiers: 'hot',
      maxResults: this.services.options.recallResults,
    });
    return found.map((result) => result.entry);
  }

  /**
   * The entries the session holds as they are now: `undefined` for one deleted, superseded or
   * ended since (SPEC B9: as of `asOf` when given), so the session memory never shows a fact that
   * no longer holds. An entry that cannot be read keeps its last version.
   */
  private async currentVersions(
    memory: ILongTermMemory,
    session: SessionRecall,
    asOf: string | undefined,
  ): Promise<Map<string, MemoryEntry | undefined>> {
    const at = asOf === undefined ? undefined : Date.parse(asOf);
    const nowMs = this.services.clock.now().getTime();
    const held = session.entries();
    const versions = await Promise.all(
      held.map(async ({ entry }) => {
        try {
          const current = await memory.get(entry.id);
          const holds = current !== undefined && (at === undefined ? holdsNow(current, nowMs) : heldAt(current, at));
          return [entry.id, holds ? current : undefined] as const;
        } catch (error) {
          this.services.logger.debug('Could not read a recalled entry again; its last version stays in the session memory.', {
            id: entry.id,
            error: String(error),
          });
          return [entry.id, entry] as const;
        }
      }),
    );
    return new Map(versions);
  }

  /** The entries of the pinned categories (SPEC M11), as the store ranks them without a query: by effective importance. */
  private async profile(memory: ILongTermMemory, asOf: string | undefined): Promise<MemoryEntry[]> {
    const { categories } = this.services.options.profile;
    if (categories.length === 0) return [];
    const lists = await Promise.all(
      categories.map((category) =>
        memory.search({ category, tiers: 'hot', maxResults: PROFILE_CANDIDATES_PER_CATEGORY, ...(asOf === undefined ? {} : { asOf }) }),
      ),
    );
    return lists.flat().map((result) => result.entry);
  }
}

/** Why `namespace` is not a two-segment namespace under `root`, or undefined when it is. */
function namespaceProblem(namespace: string, root: string): string | undefined {
  const problem = pathNameProblem(namespace, NAMESPACE_RULES);
  if (problem) return `invalid namespace ${JSON.stringify(namespace)}: ${problem}`;
  const segments = namespace.split('/');
  if (segments.length !== 2 || segments[0] !== root) {
    return `invalid namespace ${JSON.stringify(namespace)}: it must be two segments starting with "${root}/", such as "${root}/${root === 'session' ? '<sessionId>' : '<task>'}"`;
  }
  return undefined;
}

/** `session/<sessionId>`, when the session id can serve as a namespace segment. */
function userNamespace(sessionId: string): string {
  const namespace = `session/${sessionId}`;
  const problem = namespaceProblem(namespace, NAMESPACE_ROOT.user);
  if (problem) {
    throw new ReverieValidationError(
      'INVALID_INPUT',
      `Invalid turn input: sessionId: ${JSON.stringify(sessionId)} cannot name a working-memory namespace (${problem}); pass namespace, such as "session/abc123".`,
      { details: { sessionId, problem } },
    );
  }
  return namespace;
}

/** Subagent research outlines: keys whose last segment ends with `-index`. */
function isResearchIndex(entry: WorkingMemoryEntry): boolean {
  return entry.key.slice(entry.key.lastIndexOf('/') + 1).endsWith('-index');
}

function pushSection(system: string[], section: string | undefined): void {
  if (section !== undefined) system.push(section);
}

function toModelMessage(turn: RecordedTurn): ModelMessage {
  return turn.role === 'user' ? { role: 'user', content: turn.content } : { role: 'assistant', content: turn.content };
}
