import type { ArchiveRecord } from './records/archive-record';
import type { ConsolidationCursor, SeenUpdate } from './records/consolidation-cursor';
import type { DeadLetter } from './records/dead-letter';
import type { JournalLine, JournalWriter } from './records/journal-line';
import type { LedgerLine } from './records/ledger-line';
import type { LockHolder } from './records/lock-holder';
import type { DreamLockStatus } from './records/lock-status';
import type { PassPlanFile } from './records/pass-plan-file';
import type { RecallEvent } from './records/recall-event';
import type { RecallSignalsFile } from './records/recall-signals';
import type { RunManifest } from './records/run-manifest';
import type { PlanApplied, SavedPlan } from './records/saved-plan';
import type { SessionEnd } from './records/session-end';

/**
 * The dream engine's own state for one scope (SPEC B6, B8): its runs (plans, archives, journals,
 * reports), dead letters, saved plans, the ledger, the completed sessions the session gate
 * counts, the passes' cursors, the recall events and signals, and the lock. One store is one
 * scope; nothing in it names another. `FileDreamStateStore` keeps it in `<dataPath>/_system/dreams/`;
 * a database keeps it in tables keyed by the scope.
 *
 * Every method is async and every record it takes or returns is plain JSON data, except the
 * consolidation cursor's `seen`, a lookup (see `DreamCursorStore.readConsolidation`). No method
 * takes a file path: where a record lives in a place a person can open (a run folder, a plan
 * folder), the store says so in an optional `location`, which callers only show.
 *
 * Two stores opened on the same scope — two processes, two machines — see each other's writes:
 * a run interrupted through one is recovered, shown, retried and undone through the other.
 * `describeDreamStateConformance` (`@reverie/dream-state/testing`) is the behaviour every
 * implementation must show.
 */
export interface DreamStateStore {
  readonly runs: DreamRunStore;
  readonly deadLetters: DeadLetterStore;
  readonly plans: SavedPlanStore;
  /** The telemetry ledger: one line per pass of every real run (SPEC O5). */
  readonly ledger: AppendOnlyLog<LedgerLine>;
  /** Completed agent sessions, for the session gate (SPEC O3). */
  readonly sessions: AppendOnlyLog<SessionEnd>;
  readonly cursors: DreamCursorStore;
  readonly recall: RecallStateStore;
  /** One runner per scope, across processes and machines (SPEC O3). */
  readonly lock: DreamStateLock;
  /** Where this scope's state is, for messages (the dream directory for files); absent when there is nothing to show. */
  readonly location?: string | undefined;
  /** Releases what the store holds (a lock still held is released); the store is not used after. */
  close(): Promise<void>;
}

/** The records a run keeps (SPEC O7, O8), one `DreamRun` per run. */
export interface DreamRunStore {
  /** Starts the record of a run, status `running`, durable when this returns. */
  create(run: NewDreamRun): Promise<DreamRun>;
  /** The run, or undefined when there is none. */
  open(runId: string): Promise<DreamRun | undefined>;
  /** Every readable run's manifest, in no particular order (unreadable ones are left out). */
  list(): Promise<DreamRunListing[]>;
  /** Removes a run and everything it recorded (archive retention); nothing happens when there is no such run. */
  remove(runId: string): Promise<void>;
}

export interface NewDreamRun {
  runId: string;
  trigger: string;
  /** ISO timestamp. */
  startedAt: string;
  /** The run whose failed passes this run retries. */
  retryOf?: string | undefined;
  /** The saved plan this run applies. */
  planId?: string | undefined;
}

export interface DreamRunListing {
  manifest: RunManifest;
  /** Where the run's records are (its folder, for files). */
  location?: string | undefined;
}

/**
 * One run's records. What the engine needs to finish or undo a step is durable before the step
 * touches a store: `writePlan` and `archive` return only once their records survive a crash
 * (and `writePlan` makes the artifacts written before it durable too); a journal line is on
 * record for every other process once `append` returns (durable at `close`).
 */
export interface DreamRun {
  readonly runId: string;
  /** The manifest as last read or written through this object. */
  readonly state: Readonly<RunManifest>;
  readonly location?: string | undefined;
  /** Changes the manifest (a key set to undefined is removed), durably. */
  update(change: Partial<RunManifest>): Promise<void>;
  /**
   * Keeps a named artifact (a prompt, a reply, `report.json`, `summary.md`); a name is letters,
   * digits, `.`, `_` and `-` (INVALID_INPUT otherwise). Written whole or not at all; durable at
   * the next `syncArtifacts` or `writePlan`.
   */
  writeArtifact(name: string, content: string): Promise<void>;
  syncArtifacts(): Promise<void>;
  /** An artifact's content, or undefined when there is none. */
  readArtifact(name: string): Promise<string | undefined>;
  /** The names of what a person can read of the run (its artifacts; for files, every file of its folder but the archive), sorted. */
  listArtifacts(): Promise<string[]>;
  /** Records a pass's plan and marks the pass as the one being applied (`manifest.applying`). */
  writePlan(plan: PassPlanFile): Promise<void>;
  /** The plan `pass` recorded; throws when there is none. */
  readPlan(pass: string): Promise<PassPlanFile>;
  /** Keeps records as they were before `pass` touched them; a key archived already keeps its first pre-image. */
  archive(pass: string, records: readonly ArchiveRecord[]): Promise<void>;
  /** A record as `pass` archived it; undefined when it did not. */
  readArchive(pass: string, kind: ArchiveRecord['kind'], key: string): Promise<unknown | undefined>;
  /** Opens the journal for appending, one line per operation applied. */
  openJournal(): Promise<JournalWriter>;
  /** The journal so far, in order (a line a crash cut short is left out). */
  readJournal(): Promise<JournalLine[]>;
}

/** A run with a failed pass leaves a dead letter until a retry succeeds (SPEC O7). */
export interface DeadLetterStore {
  /** Writes (or replaces) the dead letter of `letter.runId`. */
  write(letter: DeadLetter): Promise<void>;
  /** Undefined when there is none (or it is unreadable). */
  read(runId: string): Promise<DeadLetter | undefined>;
  remove(runId: string): Promise<void>;
  /** The ids of the runs that have a dead letter. */
  list(): Promise<string[]>;
}

/** A saved plan with whether it was applied. */
export interface StoredPlan {
  plan: SavedPlan;
  applied?: PlanApplied;
  /** Where the plan is (its folder with `plan.json` and `summary.md`, for files). */
  location?: string | undefined;
}

/** Plans saved by dry runs for `apply` (SPEC B11). */
export interface SavedPlanStore {
  /** Saves a plan and its summary for people; a plan is complete or absent, never half there. */
  save(plan: SavedPlan, summary: string): Promise<{ location?: string | undefined }>;
  /** PLAN_NOT_FOUND when there is no such (complete, readable) plan. */
  read(planId: string): Promise<StoredPlan>;
  /** Records that a run applied the plan; written before that run touches a store. */
  markApplied(planId: string, applied: PlanApplied): Promise<void>;
  /** Every readable plan, newest `createdAt` first. */
  list(): Promise<StoredPlan[]>;
}

/** What an append-only log holds. */
export interface JsonlContents<T> {
  /** The records that parsed and matched the schema, in order. */
  lines: T[];
  /** Records skipped because they were not valid JSON or did not match the schema (a torn last line after a crash, a hand edit). */
  invalidLines: number;
}

/** An append-only log of records (the ledger, the completed sessions). */
export interface AppendOnlyLog<T> {
  /** Appends one record, durably; concurrent appenders never mix two records. */
  append(record: T): Promise<void>;
  /** Every valid record, oldest first; records that cannot be read are counted, not returned. */
  read(): Promise<JsonlContents<T>>;
}

/** The passes' small durable state between cycles (SPEC D18), moved only by a pass's `commit`. */
export interface DreamCursorStore {
  /** The value last written for `pass`, undefined when none (or unreadable: the pass starts over). The caller validates it. */
  read(pass: string): Promise<unknown>;
  /** Replaces the value of `pass` atomically. */
  write(pass: string, value: unknown): Promise<void>;
  /**
   * The memory-consolidation cursor of `pass`. Its `seen` (one wording fingerprint per entry
   * ever considered, up to millions) is a lookup, so an implementation can keep it compact.
   */
  readConsolidation(pass: string): Promise<ConsolidationCursor>;
  /**
   * Writes the cursor as advanced from `before` (as read) together with the changes of `seen`:
   * both or neither. Writes nothing when nothing changed.
   */
  writeConsolidation(pass: string, cursor: ConsolidationCursor, before: ConsolidationCursor, update?: SeenUpdate): Promise<void>;
}

/**
 * What searches returned (SPEC O4) and the per-entry signals folded from it. Events are appended
 * from the agent's turn path (batched by `RecallEventLog`), so `appendEvents` must be cheap.
 */
export interface RecallStateStore {
  appendEvents(events: readonly RecallEvent[]): Promise<void>;
  /** The folded signals as last written; an empty record (offset 0, no entries) when none. */
  readSignals(): Promise<RecallSignalsFile>;
  /**
   * The events recorded after the position `signals` were folded through, each once, and the
   * position after them, to write with the signals they are folded into. An event being
   * appended concurrently is read next time.
   */
  readNewEvents(signals: RecallSignalsFile): Promise<{ events: RecallEvent[]; invalid: number; position: RecallEventPosition }>;
  /** Replaces the folded signals atomically (with the position they were folded through). */
  writeSignals(signals: RecallSignalsFile): Promise<void>;
  /**
   * Drops the events `signals` were folded through once they take more than `compactEventsBytes`,
   * folding whatever was appended meanwhile into `signals` (which it writes); true when it did.
   */
  compactEvents(signals: RecallSignalsFile, options: { compactEventsBytes: number }): Promise<boolean>;
}

/** Where in the event log the signals are folded through (bytes for files, an event number for a database). */
export type RecallEventPosition = Pick<RecallSignalsFile, 'offset' | 'doneFolding'>;

/** A held lock; `release()` is idempotent. */
export interface DreamLockHandle {
  readonly holder: LockHolder;
  /**
   * Aborted, with a LOCK_LOST error as its reason, once the holder knows it lost the lock (on
   * PostgreSQL: the connection holding it dropped, so another runner may take it): the work done
   * under the lock must stop before its next write, as a crash would stop it, and leave the rest
   * to the next runner's recovery. A lock that cannot tell leaves it out.
   */
  readonly lost?: AbortSignal;
  release(): Promise<void>;
}

/**
 * One runner per scope. A holder that is gone (its process ended, its connection closed, its
 * heartbeat stood still) loses the lock to the next `acquire`; two live holders never hold it at once.
 */
export interface DreamStateLock {
  /** Takes the lock or throws LOCK_HELD naming the holder. */
  acquire(runId?: string): Promise<DreamLockHandle>;
  /** Whether the lock is free or held, by whom, and whether it could be taken over. */
  state(): Promise<DreamLockStatus>;
}

/** Runs `work` while holding `lock`; `lost` is the handle's (see `DreamLockHandle.lost`). */
export async function holdingLock<T>(
  lock: DreamStateLock,
  work: (holder: LockHolder, lost: AbortSignal | undefined) => Promise<T>,
  runId?: string,
): Promise<T> {
  const handle = await lock.acquire(runId);
  try {
    return await work(handle.holder, handle.lost);
  } finally {
    await handle.release();
  }
}

/** Throws the LOCK_LOST reason once `lost` is aborted: called before each write made under the lock. */
export function assertStillHeld(lost: AbortSignal | undefined): void {
  if (lost?.aborted) throw lost.reason;
}
