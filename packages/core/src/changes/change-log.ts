import { newId } from '../ids/new-id';
import type { MemoryChange, MemoryChangePage, MemoryChangeQuery } from '../interfaces/memory-change-feed';
import { formatChangeCursor, parseChangeCursor, parseChangeQuery } from './change-cursor';

/**
 * An in-process change feed (SPEC B12) for stores that keep their records in memory: the last
 * `capacity` changes, numbered from 1 under an epoch drawn when the log is created, fewer once
 * `compact` let go of those every reader has passed. A cursor older than what the log still
 * holds, or of another epoch, is answered with a reset.
 */
export class ChangeLog {
  private readonly epoch = newId();
  private readonly ids: string[] = [];
  private readonly ops: Array<MemoryChange['op']> = [];
  /** Sequence number of the first change still held (changes are numbered from 1). */
  private firstSeq = 1;
  private lastSeq = 0;

  constructor(private readonly capacity = 100_000) {}

  record(id: string, op: MemoryChange['op']): void {
    this.ids.push(id);
    this.ops.push(op);
    this.lastSeq += 1;
    if (this.ids.length > this.capacity * 2) {
      const drop = this.ids.length - this.capacity;
      this.ids.splice(0, drop);
      this.ops.splice(0, drop);
      this.firstSeq += drop;
    }
  }

  /** `IMemoryChangeFeed.compactChanges`: drops the changes up to the oldest cursor of `keep` that is this log's. */
  compact(keep: readonly string[]): { removed: number } {
    const through = oldestPosition(keep, this.epoch, this.lastSeq);
    if (through === undefined || through < this.firstSeq) return { removed: 0 };
    const removed = through - this.firstSeq + 1;
    this.ids.splice(0, removed);
    this.ops.splice(0, removed);
    this.firstSeq += removed;
    return { removed };
  }

  changes(query?: MemoryChangeQuery): MemoryChangePage {
    const { since, limit } = parseChangeQuery(query);
    const head = formatChangeCursor({ epoch: this.epoch, seq: this.lastSeq });
    if (!since || since.epoch !== this.epoch || since.seq < this.firstSeq - 1 || since.seq > this.lastSeq) {
      return { changes: [], cursor: head, more: false, reset: true };
    }
    const changes: MemoryChange[] = [];
    const end = Math.min(this.lastSeq, since.seq + limit);
    for (let seq = since.seq + 1; seq <= end; seq++) {
      const at = seq - this.firstSeq;
      changes.push({ id: this.ids[at]!, op: this.ops[at]!, cursor: formatChangeCursor({ epoch: this.epoch, seq }) });
    }
    return { changes, cursor: formatChangeCursor({ epoch: this.epoch, seq: end }), more: end < this.lastSeq, reset: false };
  }
}

/**
 * The sequence number of the oldest of `cursors` that belongs to history `epoch` (and is not past
 * its head `lastSeq`): what every reader of the feed has read through. Undefined when none does.
 * Cursors of another store or history, and text that is no cursor, hold nothing back. Pure.
 */
export function oldestPosition(cursors: readonly string[], epoch: string, lastSeq: number): number | undefined {
  let oldest: number | undefined;
  for (const cursor of cursors) {
    const position = typeof cursor === 'string' ? parseChangeCursor(cursor) : undefined;
    if (!position || position.epoch !== epoch || position.seq > lastSeq) continue;
    oldest = oldest === undefined ? position.seq : Math.min(oldest, position.seq);
  }
  return oldest;
}
