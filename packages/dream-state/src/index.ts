// `@reverie/dream-state`: the contract between the dream engine and the stores of its state (SPEC
// B6, B8), as `@ai-sdk/provider` is to the AI SDK — the `DreamStateStore` interface and every
// record it takes and returns, with their zod schemas. The file store (`@reverie/file-store`), the
// PostgreSQL store (`@reverie/postgres`) and the engine (`@reverie/dream`) import it; it imports
// only `@reverie/core`. Its conformance kit is `@reverie/dream-state/testing`.
export {
  type AppendOnlyLog,
  assertStillHeld,
  type DeadLetterStore,
  type DreamCursorStore,
  type DreamLockHandle,
  type DreamRun,
  type DreamRunListing,
  type DreamRunStore,
  type DreamStateLock,
  type DreamStateStore,
  holdingLock,
  type JsonlContents,
  type NewDreamRun,
  type RecallEventPosition,
  type RecallStateStore,
  type SavedPlanStore,
  type StoredPlan,
} from './dream-state-store';
export { PassCursor } from './pass-cursor';
export { DREAM_PHASES, type DreamPhase, dreamPhaseSchema } from './records/dream-phase';
export type { ArchiveRecord } from './records/archive-record';
export {
  type ConsolidationCursor,
  consolidationCursorSchema,
  type CursorPosition,
  EMPTY_CURSOR,
  fingerprintsSchema,
  type SeenUpdate,
  type StoredConsolidationCursor,
} from './records/consolidation-cursor';
export { type DeadLetter, deadLetterSchema } from './records/dead-letter';
export { type DreamOperation, dreamOperationSchema } from './records/dream-operation';
export { type JournalLine, journalLineSchema, type JournalWriter } from './records/journal-line';
export { type LedgerLine, ledgerLineSchema } from './records/ledger-line';
export { type LockHolder, lockHolderSchema } from './records/lock-holder';
export { type DreamLockStatus, lockStatusSchema } from './records/lock-status';
export { type PassPlanFile, passPlanFileSchema } from './records/pass-plan-file';
export { type RecallEvent, recallEventSchema, type RecallSource } from './records/recall-event';
export {
  emptyRecallSignals,
  type EntryRecallTally,
  foldRecallEvents,
  type RecallSignalsFile,
  recallSignalsFileSchema,
} from './records/recall-signals';
export { type RunManifest, runManifestSchema, type RunStatus, runStatusSchema } from './records/run-manifest';
export {
  type PlanApplied,
  planAppliedSchema,
  type SavedPass,
  savedPassSchema,
  type SavedPlan,
  savedPlanSchema,
} from './records/saved-plan';
export {
  FINGERPRINT_RECORD_BYTES,
  type FingerprintChange,
  fingerprintChanges,
  type FingerprintLookup,
  SeenFingerprints,
} from './records/seen-fingerprints';
export { type SessionEnd, sessionEndSchema } from './records/session-end';
