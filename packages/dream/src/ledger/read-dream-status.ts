import { DreamLedger } from './dream-ledger';
import { type DreamLockStatus, type DreamStatus, summariseLedger } from './dream-status';

export interface ReadDreamStatusOptions {
  dataPath: string;
  /** Hours back from `now` that the per-phase counts cover (default 24). */
  windowHours?: number;
  now: Date;
  /** The lock's state, to show beside the ledger (the engine's `lockState()`). */
  lock?: DreamLockStatus;
}

/** Reads the ledger of a data directory and aggregates it per phase (SPEC O5). */
export async function readDreamStatus(options: ReadDreamStatusOptions): Promise<DreamStatus> {
  const { lines, invalidLines } = await new DreamLedger(options.dataPath).read();
  const status = summariseLedger(lines, {
    now: options.now,
    invalidLines,
    ...(options.windowHours === undefined ? {} : { windowHours: options.windowHours }),
  });
  return options.lock === undefined ? status : { ...status, lock: options.lock };
}
