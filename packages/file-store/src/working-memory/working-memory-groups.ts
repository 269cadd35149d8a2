import { Bm25Index, type IClock, type WorkingMemoryEntry, workingMemoryDocumentText } from '@reverie/core';
import { monotonicMs } from '@reverie/core/internal';
import type { HybridSearch } from '../embeddings/hybrid-search';
import { type EntryChecks, type FileStamp, groupOf } from './group-files';

export interface Group {
  /** Entries in the order they were stored (ties in storedAt evict the first stored). */
  entries: Map<string, WorkingMemoryEntry>;
  stamp: FileStamp | undefined;
  /** The file still holds records this process dropped (expired or invalid): the next sweep rewrites it. */
  stale: boolean;
}

/** When an entry expires on the clock's monotonic basis, for the entry (storedAt, expiresAt) it was computed for. */
export interface Deadline {
  storedAt: string;
  expiresAt: string;
  at: number;
}

/**
 * Working memory as this process holds it: the groups (one per namespace file) with their
 * entries, the BM25 index and the hybrid side over them, and each entry's deadline. Every change
 * replaces a group's state in one step (`replace`), which keeps the index in step with it.
 */
export class WorkingMemoryGroups implements EntryChecks {
  private readonly groups = new Map<string, Group>();
  /** Per kind (`session`, `patrol`…), the names of its groups in `groups`. */
  private readonly groupsOfKind = new Map<string, Set<string>>();
  /** Per key, the monotonic time its entry expires, for the entry (storedAt, expiresAt) it was computed for. */
  private readonly deadlines = new Map<string, Deadline>();
  readonly index = new Bm25Index();

  constructor(
    private readonly clock: IClock,
    private readonly hybrid: HybridSearch | undefined,
  ) {}

  get(name: string): Group | undefined {
    return this.groups.get(name);
  }

  /** The groups whose file still holds records this process dropped. */
  staleNames(): string[] {
    return [...this.groups].filter(([, group]) => group.stale).map(([name]) => name);
  }

  replace(name: string, entries: Map<string, WorkingMemoryEntry>, stamp: FileStamp | undefined, stale: boolean): void {
    const previous = this.groups.get(name)?.entries ?? new Map<string, WorkingMemoryEntry>();
    for (const key of previous.keys()) {
      if (entries.has(key)) continue;
      this.unindex(key);
      this.deadlines.delete(key);
    }
    for (const [key, entry] of entries) {
      if (previous.get(key) === entry) continue;
      const text = workingMemoryDocumentText(entry);
      this.index.set(key, text);
      this.hybrid?.want(key, text);
    }
    const kind = name.slice(0, name.indexOf('/'));
    if (entries.size === 0 && stamp === undefined) {
      this.groups.delete(name);
      this.groupsOfKind.get(kind)?.delete(name);
      return;
    }
    this.groups.set(name, { entries, stamp, stale });
    let names = this.groupsOfKind.get(kind);
    if (names === undefined) this.groupsOfKind.set(kind, (names = new Set()));
    names.add(name);
  }

  /** Fixes the deadline of an entry this process saves. */
  setDeadline(key: string, deadline: Deadline): void {
    this.deadlines.set(key, deadline);
  }

  /** Why the index cannot take `entry` in, or undefined when it can. */
  indexProblem(entry: WorkingMemoryEntry): string | undefined {
    try {
      this.index.check(workingMemoryDocumentText(entry));
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** Forgets expired entries in memory (their files are rewritten by the next write or sweep). */
  dropExpired(): number {
    let dropped = 0;
    for (const group of this.groups.values()) {
      for (const entry of [...group.entries.values()]) {
        if (!this.isExpired(entry)) continue;
        group.entries.delete(entry.key);
        this.unindex(entry.key);
        this.deadlines.delete(entry.key);
        group.stale = true;
        dropped++;
      }
    }
    return dropped;
  }

  liveCopy(name: string): Map<string, WorkingMemoryEntry> {
    const live = new Map<string, WorkingMemoryEntry>();
    for (const [key, entry] of this.groups.get(name)?.entries ?? []) if (!this.isExpired(entry)) live.set(key, entry);
    return live;
  }

  /** The live entries of the groups in `scope` (every group by default). */
  live(scope = ''): WorkingMemoryEntry[] {
    const live: WorkingMemoryEntry[] = [];
    for (const name of this.namesIn(scope)) {
      for (const entry of this.groups.get(name)!.entries.values()) if (!this.isExpired(entry)) live.push(entry);
    }
    return live;
  }

  entryOf(key: string): WorkingMemoryEntry | undefined {
    return this.groups.get(groupOf(key))?.entries.get(key);
  }

  /** The names of the groups this process holds in `scope`: every group, one kind's or one. */
  namesIn(scope: string): Iterable<string> {
    if (scope === '') return this.groups.keys();
    if (!scope.includes('/')) return this.groupsOfKind.get(scope) ?? [];
    return this.groups.has(scope) ? [scope] : [];
  }

  /**
   * Whether an entry's time is up, on the monotonic clock: its deadline is fixed when this
   * process saves the entry (now + TTL) or first reads it (now + what wall time says is left),
   * so a later wall-clock step neither expires it early nor keeps it alive.
   */
  isExpired(entry: WorkingMemoryEntry): boolean {
    const now = monotonicMs(this.clock);
    let deadline = this.deadlines.get(entry.key);
    if (deadline === undefined || deadline.storedAt !== entry.storedAt || deadline.expiresAt !== entry.expiresAt) {
      deadline = {
        storedAt: entry.storedAt,
        expiresAt: entry.expiresAt,
        at: now + (new Date(entry.expiresAt).getTime() - this.clock.now().getTime()),
      };
      this.deadlines.set(entry.key, deadline);
    }
    return deadline.at <= now;
  }

  /** Takes a removed or expired entry out of the BM25 index and its vector out of the hybrid side. */
  private unindex(key: string): void {
    this.index.delete(key);
    this.hybrid?.forget(key);
  }
}
