// `@reverie/file-store/internal`: what Reverie's own packages and their tests share of the file
// formats — the dream state's files and where they are in a data directory. Unstable: not covered
// by semver, and may change in any release; applications use the main entry.
export {
  cursorsDir,
  dreamsDir,
  failuresDir,
  ledgerPath,
  lockPath,
  recallEventsPath,
  recallSignalsPath,
  runsDir,
  sessionsPath,
} from './dream-state/dream-state-paths';
export { RunFolder } from './dream-state/runs/run-folder';
export { writeFileAtomic } from './fs/atomic-write';
export { DreamLedger } from './dream-state/ledger/dream-ledger';
export { DreamLock, type DreamLockOptions } from './dream-state/lock/dream-lock';
export { FileRecallState } from './dream-state/recall/file-recall-state';
export { FileDeadLetterStore } from './dream-state/runs/file-dead-letter-store';
