import type { AppendOnlyLog, LedgerLine } from '@reverie/dream-state';
import { type DreamStatus, summariseLedger } from './dream-status';
import { type DreamLockStatus } from '@reverie/dream-state';

export interface ReadDreamStatusOptions {
  /** The ledger to read (a state store's `ledger`). */
  ledger: AppendOnlyLog<LedgerLine>;
  /** Hours back from `now` that the per-phase counts cover (default 24). */
  windowHours?: number;
  now: Date;
  /** The lock's state, to show beside the ledger (the engine's `lockState()`). */
  lock?: DreamLockStatus;
}

/** Reads a ledger and aggregates it per phase (SPEC O5). */
export async function readDreamStatus(options: ReadDreamStatusOptions): Promise<DreamStatus> {
  const { lines, invalidLines } = await options.ledger.read();
  const status = summariseLedger(lines, {
    now: options.now,
    invalidLines,
    ...(options.windowHours === undefined ? {} : { windowHours: options.windowHours }),
  });
  return options.lock === undefined ? status : { ...status, lock: options.lock };
}
