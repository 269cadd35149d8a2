import type { LanguageModelMiddleware, wrapLanguageModel } from 'ai';
import type {
  DecayOptions,
  IConversationLog,
  IFeedbackStore,
  ISkillStore,
  ISkillUsageStore,
  IWorkflowLog,
  IWorkingMemory,
  MemoryEntry,
} from '@reverie/core';
import type { ActivityTracker } from '../activity/activity-tracker';
import type { ConversationMemory } from '../conversation/conversation-memory';
import type { TurnContextBuilder } from '../context/turn-context-builder';
import type { DreamingOptions } from '../dreaming/dream-options';
import type { DreamPassPlan } from '../dreaming/dream-pass-catalog';
import type {
  ApplyRequest,
  CycleReport,
  PlanSummary,
  PromotionExplanation,
  ValueExplanation,
  RecordChange,
  RecordHistoryItem,
  RecordKey,
  RunDetails,
  RunRequest,
  RunSummary,
  TierReport,
  UndoReport,
} from '@reverie/dream';
import type { AgentTools, ToolFamilies } from '../tools/agent-tools';
import type { ReverieMemory } from '../memory/reverie-memory';
import type { MiddlewareOptions } from '../middleware/reverie-middleware';
import type { DreamLockStatus, LedgerLine } from '@reverie/dream-state';
import type { DreamStatus } from '../dreaming/status/dream-status';
import type { ReverieContainer } from '../di/reverie-container';
import type { ExportOptions } from '../portability/export-memory';
import type { ImportOptions, ImportReport } from '../portability/import-memory';
import type { TriggerRequest, TriggerResult } from '../dreaming/gates/dream-trigger';

/** A provider model object (`openai('gpt-4.1-mini')`, a mock…), as `wrapLanguageModel` takes it. */
export type WrappableModel = Parameters<typeof wrapLanguageModel>[0]['model'];

/**
 * What `.build()` returns: the stores, the per-turn context, the tools, and lifecycle. `F` says
 * which tool families the builder added (`tools.forSession()` is typed by it).
 */
export interface Reverie<F extends ToolFamilies = ToolFamilies> {
  /**
   * SPEC E2: the child of the host's tsyringe container this instance works in, when
   * `createReverie({ container })` gave one: `reverie.container.resolve(TOKENS.ReverieMemory)` is
   * `reverie.memory`, and so on for every store and for `TOKENS.Dreams`, `TOKENS.AgentTools`,
   * `TOKENS.Reverie`. Undefined without a container.
   */
  readonly container: ReverieContainer | undefined;
  /**
   * Long-term memory, when `.withMemory()` or `.use(TOKENS.LongTermMemory, …)` registered one:
   * that store (`memory.store`) behind `ReverieMemory`, which gives entries saved without a
   * lineage the origin `api` and answers `history(id)` (SPEC B10).
   */
  readonly memory: ReverieMemory | undefined;
  readonly workingMemory: IWorkingMemory | undefined;
  readonly skills: ISkillStore | undefined;
  readonly skillUsage: ISkillUsageStore | undefined;
  readonly conversationLog: IConversationLog | undefined;
  readonly feedback: IFeedbackStore | undefined;
  readonly workflowLog: IWorkflowLog | undefined;
  /** The absolute data directory: a scope's own (`<dataPath>/scopes/<scope>`) when `scope` is set. */
  readonly dataPath: string;
  /** SPEC B8: whose memory this is (`createReverie({ scope })`, `scopes.get(scope)`), or undefined. */
  readonly scope: string | undefined;
  /**
   * SPEC D7: the decay curve of `.withMemory({ decay })` (defaults when not given). Show an
   * entry's importance with `importanceOf(entry)`, not its stored `importance`.
   */
  readonly decay: DecayOptions;
  /** SPEC D7: what `entry` is worth now — its stored importance decayed to the instance's clock with `decay`. */
  importanceOf(entry: MemoryEntry): number;
  /** Per-turn context: `forTurn(...)` before each model call, `recordReply(...)` after. */
  readonly context: TurnContextBuilder;
  /** Turns of each session kept in process memory (SPEC M9); `flush()` waits until the recorded turns are in the conversation log. */
  readonly conversation: ConversationMemory;
  /**
   * Ends a conversation (SPEC M9): its turns and recalled entries leave process memory — the
   * conversation log keeps its turns, and a later turn with the same id starts afresh — and, with
   * `.withDreaming()`, the dream cycle counts it as a completed session (`dreams.onSessionEnd`);
   * with `withMemory({ extract: 'session-end' })` its facts are taken in the background.
   * Sessions that are not ended leave memory after `context.sessionIdleTimeout` (default 1 h).
   * INVALID_INPUT for an empty id.
   */
  endSession(sessionId: string): Promise<void>;
  /**
   * Resolves once the background work started so far has ended: note expansions, fact
   * extractions (`withMemory({ extract })`) and the appends to the conversation log. `close()`
   * waits for it too.
   */
  idle(): Promise<void>;
  /** The agent's tools: `tools.memory()`, `tools.workingMemory({ namespace })`. */
  readonly tools: AgentTools<F>;
  /** Whether the user is being served right now (SPEC D1). */
  readonly activity: ActivityTracker;
  /** Wraps the host's model so every call marks the user active while it runs. */
  trackActivity(model: WrappableModel): WrappableModel;
  /**
   * AI SDK language-model middleware for one session (SPEC E1): adds the turn's context to the
   * system prompt, records the turns, marks the user active. `withReverie(model, { reverie, … })`
   * wraps a model with it. INVALID_OPTIONS when an option is wrong.
   */
  middleware(options: MiddlewareOptions): LanguageModelMiddleware;
  /** The dream cycle as configured by `.withDreaming()`. */
  readonly dreams: ReverieDreams;
  /**
   * SPEC B15: the instance's memory as the lines of a Reverie export (JSON Lines, docs/export.md),
   * each ending with a newline: memories with validity and lineage, tombstones, skills; with
   * `vectors: true`, each entry's vector from the instance's embedder, tagged with its model id.
   */
  export(options?: ExportOptions): AsyncIterable<string>;
  /**
   * SPEC B15: imports a Reverie export, a Markdown memory file, a mem0 memory list or a Letta agent
   * file (`options.format`, else told by `options.source` and the content) as one undoable dream run.
   * Bad input is an INVALID_INPUT naming each problem by line, and nothing is written. See docs/export.md.
   */
  import(text: string, options?: ImportOptions): Promise<ImportReport>;
  /** Stops background work, waits for queued writes, and closes the stores it created. */
  close(): Promise<void>;
}

export interface ReverieDreams {
  /** True when `.withDreaming()` was called. */
  readonly configured: boolean;
  /** The validated dreaming options (defaults when not configured). */
  readonly options: DreamingOptions;
  /** Which passes a cycle would run with the registered services, and why others are skipped. */
  plan(): DreamPassPlan[];
  /**
   * Runs a cycle now, without the gates (all passes, one `phase`, one `pass` or named `passes`;
   * `dryRun` writes nothing). Holds the data directory's lock: LOCK_HELD while another run has it.
   */
  run(request?: Partial<RunRequest>): Promise<CycleReport>;
  /**
   * Asks for a cycle through the gates (SPEC O2, O3): disabled, time, sessions, lock, signal.
   * A blocked trigger resolves with `{ triggered: false, gate, reason }`; otherwise the cycle
   * runs and `{ triggered: true, report }` comes back. `reason` is recorded as the run's trigger.
   */
  trigger(request?: TriggerRequest): Promise<TriggerResult>;
  /**
   * Tells the dream cycle a session ended: it counts for the session gate, and once no session
   * has ended for `sessionEndDebounce` a trigger runs (when the schedule is started).
   */
  onSessionEnd(sessionId: string): Promise<void>;
  /** The ledger aggregated per phase over the last `windowHours` (default 24), and the lock (SPEC O5). */
  status(options?: { windowHours?: number }): Promise<DreamStatus>;
  /**
   * The telemetry ledger's lines (one per pass of every real run, SPEC O5), oldest first: all of
   * them, or those that ended within the last `windowHours`.
   */
  ledger(options?: { windowHours?: number }): Promise<LedgerLine[]>;
  /** Whether a run holds the data directory's dream lock, and who. */
  lockState(): Promise<DreamLockStatus>;
  /** Every run folder, newest first. */
  listRuns(): Promise<RunSummary[]>;
  /** A run's manifest, pass outcomes, summary path and dead letter; RUN_NOT_FOUND when unknown. */
  show(runId: string): Promise<RunDetails>;
  /**
   * What a run changed, in the order it applied it: each record (memory entry, skill) before and
   * after, the pass, the reason and the journal's outcome. RUN_NOT_FOUND when unknown.
   */
  changes(runId: string): Promise<RecordChange[]>;
  /**
   * Which runs created, merged, changed or deleted a record — `{ kind: 'memory', key: entryId }`
   * or `{ kind: 'skill', key: name }` — oldest first, each with its run's status (an undone run
   * says so). Reads every run's records: an inspector's question, not a turn's.
   */
  history(record: RecordKey): Promise<RecordHistoryItem[]>;
  /** Re-runs the failed passes of a dead-lettered run; the dead letter is removed once they succeed. */
  retry(runId: string): Promise<CycleReport>;
  /**
   * Applies the plan a dry run saved (`run({ dryRun: true })` returns its `planId`), exactly and
   * without asking the model: entries changed since the plan are skipped and listed as conflicts
   * (`conflicted`), the rest is applied as a normal run that `undo` reverses. PLAN_NOT_FOUND,
   * PLAN_APPLIED (once only), PLAN_EXPIRED (older than `planMaxAge`), LOCK_HELD.
   */
  apply(planId: string, request?: ApplyRequest): Promise<CycleReport>;
  /** The saved plans not applied yet, newest first: id, when made, passes, operation counts, expired or not. */
  plans(): Promise<PlanSummary[]>;
  /**
   * Why an entry was or was not promoted by its recall signals (SPEC O4), and its value score
   * with the parts and what tier migration would do with it (`value`, SPEC B13).
   */
  explain(entryId: string): Promise<PromotionExplanation & { value?: ValueExplanation }>;
  /**
   * SPEC B13: how many entries are hot and cold, whether tier migration is on, and the `nearest`
   * (default 5) entries to each threshold with their scores. Reads both tiers: an operator's question.
   */
  tiers(request?: { nearest?: number }): Promise<TierReport & { enabled: boolean }>;
  /** Reverses a run: restores what it deleted or replaced, removes what it created (unless changed since). */
  undo(runId: string): Promise<UndoReport>;
  /** Finishes runs a crash interrupted; `start()` calls it first. */
  recover(): Promise<string[]>;
  /**
   * Starts the schedule (initial delay, then the interval; the gate ticker when gates are set),
   * waiting while the user is active. INVALID_OPTIONS without `.withDreaming()`: there would be
   * nothing to schedule.
   */
  start(): Promise<void>;
  /** Stops the schedule and aborts a cycle in flight. */
  stop(): Promise<void>;
}
