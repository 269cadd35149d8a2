import type { LanguageModel } from 'ai';
import type {
  DecayOptions,
  IClock,
  IConversationLog,
  IEmbedder,
  IFeedbackStore,
  ILogger,
  ILongTermMemory,
  ISkillStore,
  ISkillUsageStore,
  IWorkflowLog,
} from '@reverie/core';
import type { DreamOperation, DreamStateStore } from '@reverie/dream-state';

import type { DreamPhase, PassDeclaration, ServiceName } from './pass-declaration';

export type { DreamPhase, ServiceName } from './pass-declaration';

/** What the host tells the engine about its user (the `reverie` package's ActivityTracker fits). */
export interface UserActivity {
  isUserActive(): boolean;
  /** Aborts when the next user turn starts. */
  userTurnSignal(): AbortSignal;
}

/** The services a cycle can use; a pass names the ones it cannot do without. */
export interface DreamServices {
  /** The engine's own state for this scope: runs, ledger, cursors, recall signals, plans, the lock (see `DreamStateStore`). */
  state: DreamStateStore;
  /**
   * The data directory the directive files are read from (SPEC D13); without it every pass
   * uses its built-in directive.
   */
  dataPath?: string | undefined;
  clock: IClock;
  logger: ILogger;
  memory?: ILongTermMemory | undefined;
  skills?: ISkillStore | undefined;
  skillUsage?: ISkillUsageStore | undefined;
  conversationLog?: IConversationLog | undefined;
  feedback?: IFeedbackStore | undefined;
  workflowLog?: IWorkflowLog | undefined;
  model?: LanguageModel | undefined;
  /** When embeddings are configured: lets the guards check that merged entries are similar (SPEC B11). */
  embedder?: IEmbedder | undefined;
  activity?: UserActivity | undefined;
  /**
   * SPEC D7: the decay curve the memory store browses with (default 30 / 45 / 0.1). Passes that
   * read or write importance use the effective importance under it, so the store, the passes
   * and the CLI agree; give the store and the engine the same options.
   */
  decay?: DecayOptions | undefined;
  /**
   * SPEC B14: the facts the user had Reverie forget. A pass's new entry that states one of them is
   * refused (and reported as a refusal), so the cycle does not learn it again from the log.
   */
  forgotten?: ForgottenFactCheck | undefined;
}

/** What the engine asks about forgotten facts (SPEC B14). */
export interface ForgottenFactCheck {
  /** A test for the facts forgotten so far: true when `content` states one of them. Read once per pass. */
  matcher(): Promise<(content: string) => boolean>;
}
/** `ServiceName` names exactly the services a pass can require: a compile-time check that the two lists agree. */
type RequirableService = Exclude<
  keyof DreamServices,
  'state' | 'dataPath' | 'clock' | 'logger' | 'activity' | 'embedder' | 'decay' | 'forgotten'
>;
const _servicesAgree: [RequirableService, ServiceName] extends [ServiceName, RequirableService] ? true : never = true;
void _servicesAgree;

/** What a pass hands the engine after planning. */
export interface PassPlan {
  operations: DreamOperation[];
  /** How many items the pass looked at (entries, skills, turns…). */
  itemsProcessed: number;
  /** Short facts for the report ("3 duplicate groups merged", "2 ids ignored: unknown"). */
  notes: string[];
  /** Things the guards refused, recorded in the run folder. */
  refusals: string[];
  /**
   * Replies refused whole because they broke a run-level budget (SPEC B11): more outright
   * deletions or more saves than the pass allows. Recorded as misbehaviour of the model.
   */
  misbehaviour?: string[];
  /**
   * How many changes the model proposed and how many of them passed the guards. A pass that
   * received proposals and accepted (or applied) none ends as a `warning`, not a plain `ok`.
   */
  proposals?: {
    proposed: number;
    accepted: number;
    /** Of `accepted`, those that passed the guards in the model's first reply, before any repair request. */
    acceptedFirstTry?: number;
    /** Repair requests sent (memory consolidation sends at most one per run, for the refused items of all its calls). */
    repairs?: number;
  };
  /**
   * The pass's bookkeeping once its operations are applied (where a cursor moves to, say), as
   * JSON-serialisable data: the engine keeps it with the plan and hands it to `DreamPass.commit`
   * after every operation was applied, in a direct run and when a saved plan is applied later.
   */
  commit?: unknown;
  /**
   * Set when the pass's main work failed (an invalid model reply, say) but `operations` still
   * hold clean-up that must happen whatever happened (SPEC D11: the log is cleared even when
   * inference failed). The operations are applied as usual; the outcome is recorded as failed
   * with this error, and the run gets a dead letter.
   */
  failure?: string;
  /**
   * Structured findings for the cycle report (promotion candidates, say), JSON-serialisable;
   * copied to the pass's outcome as `details`.
   */
  details?: Record<string, unknown>;
}

export interface PassSkip {
  skipped: string;
}

/** What a pass may use while planning. */
export interface PassContext {
  runId: string;
  services: DreamServices;
  /** Asks the model; undefined when no model is configured. */
  gateway: ModelGatewayLike | undefined;
  /** Aborts when the run is cancelled or a user turn preempts it. */
  signal: AbortSignal;
  /**
   * The highest conversation-log seq that every other log-reading pass of this engine is done
   * with (see `DreamPass.conversationLogReadThrough`); `Infinity` when no other pass reads the
   * log. A pass that clears the log clears no further than this, so turns another pass has not
   * read yet survive (SPEC D11, D18).
   */
  conversationLogHorizon(): Promise<number>;
  /** Keeps a named artifact with the run's records (prompts, replies…). */
  artifact(name: string, content: string): Promise<void>;
  now(): Date;
}

/** A pass: its declaration (name, phase, required services, model need) and what it does. A host pass is an object of this shape. */
export interface DreamPass extends PassDeclaration {
  plan(context: PassContext): Promise<PassPlan | PassSkip>;
  /**
   * Called by the engine after the operations of a plan were applied, with the plan's `commit`
   * data as read back from JSON (so validate it). Not called when the plan has no `commit`.
   */
  commit?(services: DreamServices, data: unknown): Promise<void>;
  /**
   * For passes that read the conversation log with a cursor: the last seq this pass has
   * finished with (0 when it has read nothing yet). Turns after it must survive a log clear.
   */
  conversationLogReadThrough?(services: DreamServices): Promise<number>;
  /**
   * For passes that read the memory store's change feed (SPEC B12): the cursors they will read
   * from next (none before their first run, or when they list every entry instead). After a
   * successful cycle the engine lets the store forget the changes every such cursor has passed
   * (`compactChanges`).
   */
  memoryFeedCursors?(services: DreamServices): Promise<string[]>;
}

/** The model gateway as passes see it (SPEC D15). */
export interface ModelGatewayLike {
  /**
   * Sends the pass's directive as system prompt and `data` as the user prompt, extracts the JSON
   * object of the reply and validates it with `schema`; asks once for a correction; throws a
   * `MODEL_REPLY_INVALID` ReverieError when the reply is still invalid (the reply is saved).
   */
  ask<T>(request: GatewayRequest<T>): Promise<T>;
  /** Tokens spent so far by this gateway. */
  readonly usage: { inputTokens: number; outputTokens: number; calls: number };
  /** Every reply refused so far (too long, no JSON object, not the contract), in order. */
  readonly refusals: readonly string[];
}

export interface GatewayRequest<T> {
  /** The pass name; names the artifacts and the directive file. */
  pass: string;
  /** The directive file in the data directory that replaces `builtInDirective` when present (D13; none without a data directory). */
  directiveFile: string;
  builtInDirective: string;
  /** The rendered data: already fenced where it holds stored content. */
  data: string;
  schema: import('zod').ZodType<T>;
  signal?: AbortSignal;
  /** The longest reply the model may write, in tokens (passed to the model call); unlimited when absent. */
  maxOutputTokens?: number;
}

export type PassOutcome =
  | { name: string; phase: DreamPhase; status: 'skipped'; reason: string }
  | {
      name: string;
      phase: DreamPhase;
      /** `warning`: the model proposed changes and none was applied (see `warning` and `refusals`). */
      status: 'ok' | 'warning' | 'failed';
      itemsProcessed: number;
      applied: number;
      /** Operations not applied because the record changed since it was read (B3). */
      conflicts: number;
      /**
       * The records of those operations (`memory <id>`, `skill <name>`, `conversation log through
       * seq <n>`); absent when there was no conflict.
       */
      conflicted?: string[];
      notes: string[];
      refusals: string[];
      /** Replies refused whole for breaking a run-level budget (see `PassPlan.misbehaviour`). */
      misbehaviour?: string[];
      /** Why the outcome is a warning. */
      warning?: string;
      error?: string;
      /** Structured findings of the pass (see `PassPlan.details`). */
      details?: Record<string, unknown>;
      /** Dry runs only: what the pass would have done (SPEC O6). */
      planned?: DreamOperation[];
      tokens: { input: number; output: number };
      durationMs: number;
    };

/** The outcome of a pass that ran (ok, warning or failed). */
export type RanPassOutcome = Exclude<PassOutcome, { status: 'skipped' }>;

export interface CycleReport {
  runId: string;
  trigger: string;
  dryRun: boolean;
  startedAt: string;
  completedAt: string;
  passes: PassOutcome[];
  /** Where the run's artifacts are (absent for dry runs). */
  runFolder?: string;
  /** Why the cycle stopped early (a user turn, a cancellation), if it did. */
  interrupted?: string;
  /** The run whose failed passes this run retried. */
  retryOf?: string;
  /**
   * A dry run: the id of the plan it saved, which `apply(planId)` applies later. A real run:
   * the saved plan it applied.
   */
  planId?: string;
  /** A dry run: the folder of the plan it saved (`plan.json`, `summary.md`). */
  planFolder?: string;
}
