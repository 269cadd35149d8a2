import { type IClock, type ILogger, invalidOptions } from '@reverie/core';
import { type SessionEnd, sessionEndSchema } from '@reverie/dream-state';
import { DreamLedger } from './ledger/dream-ledger';
import { DreamLock } from './lock/dream-lock';
import { PlanStore } from './plans/plan-store';
import { FileRecallState } from './recall/file-recall-state';
import { FileDeadLetterStore } from './runs/file-dead-letter-store';
import { dreamsDir, sessionsPath } from './dream-state-paths';
import type { AppendOnlyLog, DreamStateStore } from '@reverie/dream-state';
import { FileCursorStore } from './cursors/file-cursor-store';
import { JsonlLog } from './jsonl-log';
import { FileRunStore } from './runs/file-run-store';

export interface FileDreamStateStoreOptions {
  /** The data directory; the state is kept in `<dataPath>/_system/dreams/`. */
  dataPath: string;
  clock: IClock;
  logger?: ILogger | undefined;
  /**
   * A lock of another host whose heartbeat this process has watched stand still for this long
   * may be taken over (default 60). On the same host a lock is taken over once its process is gone.
   */
  staleLockMinutes?: number | undefined;
  /** This process, as the lock file records it (defaults: `process.pid`, `os.hostname()`). */
  pid?: number | undefined;
  host?: string | undefined;
  /** Whether a process of this host is alive (default: `process.kill(pid, 0)`). */
  isProcessAlive?: ((pid: number) => boolean) | undefined;
}

/**
 * The dream state of one data directory, as the files it has always been: every part delegates
 * to the class that owns its format (`RunFolder`, `PlanStore`, `DreamLedger`, `DreamLock`, …), so
 * a data directory written before this interface existed reads and writes as it did. Opening
 * one does no I/O; a scope of the file stores is a data directory of its own.
 */
export class FileDreamStateStore implements DreamStateStore {
  readonly runs: FileRunStore;
  readonly deadLetters: FileDeadLetterStore;
  readonly plans: PlanStore;
  readonly ledger: DreamLedger;
  readonly sessions: AppendOnlyLog<SessionEnd>;
  readonly cursors: FileCursorStore;
  readonly recall: FileRecallState;
  readonly lock: DreamLock;
  readonly location: string;

  constructor(options: FileDreamStateStoreOptions) {
    const { dataPath } = options;
    if (typeof dataPath !== 'string' || dataPath.trim() === '') {
      throw invalidOptions('FileDreamStateStore needs dataPath: the data directory whose _system/dreams/ holds the dream state.', [
        { path: 'dataPath', message: 'a data directory is required' },
      ]);
    }
    this.location = dreamsDir(dataPath);
    this.runs = new FileRunStore(dataPath);
    this.deadLetters = new FileDeadLetterStore(dataPath);
    this.plans = new PlanStore(dataPath);
    this.ledger = new DreamLedger(dataPath, { logger: options.logger });
    this.sessions = new JsonlLog(sessionsPath(dataPath), sessionEndSchema, { what: 'completed session', logger: options.logger });
    this.cursors = new FileCursorStore(dataPath);
    this.recall = new FileRecallState(dataPath);
    this.lock = new DreamLock({
      dataPath,
      clock: options.clock,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.staleLockMinutes === undefined ? {} : { staleLockMinutes: options.staleLockMinutes }),
      ...(options.pid === undefined ? {} : { pid: options.pid }),
      ...(options.host === undefined ? {} : { host: options.host }),
      ...(options.isProcessAlive === undefined ? {} : { isProcessAlive: options.isProcessAlive }),
    });
  }

  close(): Promise<void> {
    return this.lock.close();
  }
}
