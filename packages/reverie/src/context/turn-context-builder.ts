import type { ModelMessage } from 'ai';
import { z } from 'zod';
import {
  type IClock,
  type ILogger,
  type ILongTermMemory,
  type IWorkingMemory,
  MAX_SEARCH_TEXT_LENGTH,
  type MemoryEntry,
  type MemorySearchResult,
  parseRecord,
  pathNameProblem,
  ReverieValidationError,
  sessionIdSchema,
  type TimeInput,
  timestampSchema,
  toStorableText,
  WORKING_MEMORY_KEY_RULES,
  type WorkingMemoryEntry,
} from '@reverie/core';
import type { ConversationMemory, RecordedTurn } from '../conversation/conversation-memory';
import type { RecallRecorder } from '@reverie/dream';
import { recallSearch } from '../recall/recall-search';
import { searchOutsideSystem } from '../recall/search-outside-system';
import type { ContextOptions } from './context-options';
import { INVENTORY_TITLES, renderInventory, renderRecall } from './render-context';

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
}

export interface TurnContext {
  /** The context sections in order: recall, own inventory, patrol findings, subagent outlines (empty ones left out). */
  system: string[];
  /**
   * The sections joined into one text for the `system` option of `generateText`, after the
   * host's own instructions: `system: [instructions, context.systemPrompt].join('\n\n')`.
   */
  systemPrompt: string;
  /** The replayed turns (oldest first), then the new user message: the `messages` option. */
  messages: ModelMessage[];
  /** Ids of the long-term memory entries injected by this turn (those not injected before in the session). */
  injectedIds: string[];
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
}

const MAX_MESSAGE_LENGTH = 1_000_000;
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
  })
  .strict()
  .superRefine((input, ctx) => {
    const root = NAMESPACE_ROOT[input.kind];
    if (input.namespace === undefined) {
      if (input.kind !== 'user') {
        ctx.addIssue({ code: 'custom', path: ['namespace'], message: `a ${input.kind} turn needs its namespace, such as "${root}/<task>"` });
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
 * Assembles what the model sees on each turn (SPEC M11): long-term memory recalled for the
 * message (each entry once per session), the inventory of the caller's working memory (keys and
 * expiry, never values), for user turns also patrol findings and subagent research outlines,
 * then the last turns of the session and the new message, which it records (SPEC M9).
 */
export class TurnContextBuilder {
  /** Per session, the ids of the memory entries already injected (the delta filter). */
  private readonly injected = new Map<string, Set<string>>();

  constructor(private readonly services: TurnContextServices) {}

  /** The context for a new message; records the message in the session's conversation. */
  async forTurn(input: TurnInput): Promise<TurnContext> {
    const turn = parseRecord(turnInputSchema, input, 'turn input');
    const { memory, workingMemory, conversation, clock, logger, options } = this.services;
    const namespace = workingMemory ? (turn.namespace ?? userNamespace(turn.sessionId)) : undefined;
    const seen = this.injected.get(turn.sessionId);
    const firstTurn = conversation.size(turn.sessionId) === 0 && (seen === undefined || seen.size === 0);
    const system: string[] = [];

    // The recall search and the working-memory reads do not depend on each other: they run together.
    const none: Promise<WorkingMemoryEntry[]> = Promise.resolve([]);
    const wm = workingMemory && namespace !== undefined ? workingMemory : undefined;
    const [recalled, own, patrol, outlines] = await Promise.all([
      memory ? this.recall(memory, turn.message, seen, firstTurn, turn.asOf) : Promise.resolve([]),
      wm ? wm.list(namespace) : none,
      wm && turn.kind === 'user' ? wm.list('patrol') : none,
      wm && turn.kind === 'user' ? wm.list('subagent').then((entries) => entries.filter(isResearchIndex)) : none,
    ]);
    pushSection(system, renderRecall(recalled));
    if (wm) {
      const now = clock.now();
      pushSection(system, renderInventory(INVENTORY_TITLES.own, own, now));
      pushSection(system, renderInventory(INVENTORY_TITLES.patrol, patrol, now));
      pushSection(system, renderInventory(INVENTORY_TITLES.subagent, outlines, now));
    }

    const replay = conversation.recent(turn.sessionId, options.replayTurns);
    conversation.record(turn.sessionId, 'user', turn.message);

    const injectedIds = recalled.map((entry) => entry.id);
    if (injectedIds.length > 0) {
      const ids = seen ?? new Set<string>();
      for (const id of injectedIds) ids.add(id);
      this.injected.set(turn.sessionId, ids);
    }
    logger.debug('Built the context of a turn.', { sessionId: turn.sessionId, kind: turn.kind, injected: injectedIds.length, replayed: replay.length });

    return {
      system,
      systemPrompt: system.join('\n\n'),
      messages: [
        ...replay.map(toModelMessage),
        { role: 'user', content: turn.message },
      ],
      injectedIds,
    };
  }

  /**
   * Records the assistant's reply. `ephemeral` replies (dream runs, SPEC D16) stay out of the
   * conversation log. Like `forTurn`, it does not wait for the log (`reverie.conversation.flush()` does).
   */
  async recordReply(sessionId: string, content: string, options: { ephemeral?: boolean } = {}): Promise<void> {
    const reply = parseRecord(replyInputSchema, { sessionId, content, ephemeral: options?.ephemeral }, 'reply');
    this.services.conversation.record(reply.sessionId, 'assistant', reply.content, { ephemeral: reply.ephemeral ?? false });
  }

  /**
   * Ends a session: forgets which entries it was shown and its replayable turns (turns already
   * in the conversation log stay there). A later turn with the same id starts afresh.
   */
  endSession(sessionId: string): void {
    this.injected.delete(sessionId);
    this.services.conversation.endSession(sessionId);
  }

  /**
   * The top entries for the message, less those injected earlier in the session. On a session's
   * first turn, when nothing matches, the first entries of a browse instead.
   */
  private async recall(
    memory: ILongTermMemory,
    message: string,
    seen: ReadonlySet<string> | undefined,
    firstTurn: boolean,
    asOf: string | undefined,
  ): Promise<MemoryEntry[]> {
    const { recallResults, firstTurnFallback } = this.services.options;
    const search = searchOutsideSystem(recallSearch(memory, this.services.secondHop ?? false));
    const when = asOf === undefined ? {} : { asOf };
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
    const entries = found.map((result) => result.entry);
    return seen ? entries.filter((entry) => !seen.has(entry.id)) : entries;
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
