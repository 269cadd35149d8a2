import { newId } from '../ids/new-id';
import type { MemoryChange, MemoryChangePage, MemoryChangeQuery } from '../interfaces/memory-change-feed';
import { formatChangeCursor, parseChangeQuery } from './change-cursor';

/**
 * An in-process change feed (SPEC B12) for stores that keep their records in memory: the last
 * `capacity` changes, numbered from 1 under an epoch drawn when the log is created. A cursor
 * older than what the log still holds, or of another epoch, is answered with a reset.
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
