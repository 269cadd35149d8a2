import { invalidOptions } from '../options/invalid-options';
import type { IClock } from '../interfaces/clock';
import type { IWorkingMemory } from '../interfaces/working-memory';
import {
  DEFAULT_MAX_ENTRIES_PER_NAMESPACE,
  DEFAULT_WORKING_MEMORY_TTL_MS,
  namespaceOf,
  type WorkingMemoryEntry,
  type WorkingMemorySearchQuery,
  type WorkingMemorySearchResult,
  type WorkingMemorySetOptions,
} from '../schemas/working-memory-entry';
import { Bm25Index } from '../search/bm25-index';
import { buildWorkingMemoryEntry } from '../working-memory/build-working-memory-entry';
import { parseWorkingMemoryQuery } from '../working-memory/working-memory-query';
import { assertOpen } from '../stores/write-condition';
import { systemClock } from '../time/system-clock';
import { isUnderPrefix, validateWorkingMemoryKey } from '../validation/path-name';
import type { InMemoryStoreOptions } from './in-memory-store-options';

export interface InMemoryWorkingMemoryOptions extends InMemoryStoreOptions {
  /** TTL of an entry saved without one, in ms (default 5 minutes). */
  defaultTtlMs?: number;
  /** Most entries one namespace holds; saving past it evicts the oldest (default 50). */
  maxEntriesPerNamespace?: number;
}

/** The text BM25 indexes for a working-memory entry: key segments, value, category and tags. */
export function workingMemoryDocumentText(entry: Pick<WorkingMemoryEntry, 'key' | 'value' | 'category' | 'tags'>): string {
  return [entry.key.replace(/[/-]/g, ' '), entry.value, entry.category?.replace(/[/-]/g, ' ') ?? '', entry.tags.join(' ')].join(' ');
}

/**
 * The reference `IWorkingMemory` (SPEC M7): entries in a Map, expiry checked on every read,
 * a per-namespace cap that evicts the oldest entry. Nothing persists.
 */
export class InMemoryWorkingMemory implements IWorkingMemory {
  private readonly entries = new Map<string, WorkingMemoryEntry>();
  private readonly index = new Bm25Index();
  private readonly clock: IClock;
  private readonly defaultTtlMs: number;
  private readonly maxPerNamespace: number;
  private closed = false;

  constructor(options: InMemoryWorkingMemoryOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.defaultTtlMs = positiveInteger(options.defaultTtlMs, DEFAULT_WORKING_MEMORY_TTL_MS, 'defaultTtlMs');
    this.maxPerNamespace = positiveInteger(options.maxEntriesPerNamespace, DEFAULT_MAX_ENTRIES_PER_NAMESPACE, 'maxEntriesPerNamespace');
  }

  async set(key: string, value: string, options: WorkingMemorySetOptions = {}): Promise<WorkingMemoryEntry> {
    assertOpen(this.closed, 'working memory');
    const entry = buildWorkingMemoryEntry(key, value, options, this.clock, this.defaultTtlMs);
    this.dropExpired();
    this.remove(key);
    this.entries.set(key, entry);
    this.index.set(key, workingMemoryDocumentText(entry));
    this.enforceCap(namespaceOf(key));
    return { ...entry, tags: [...entry.tags] };
  }

  async get(key: string): Promise<WorkingMemoryEntry | undefined> {
    assertOpen(this.closed, 'working memory');
    validateWorkingMemoryKey(key);
    const entry = this.entries.get(key);
    if (!entry || this.isExpired(entry)) return undefined;
    return { ...entry, tags: [...entry.tags] };
  }

  async delete(key: string): Promise<boolean> {
    assertOpen(this.closed, 'working memory');
    validateWorkingMemoryKey(key);
    const entry = this.entries.get(key);
    this.remove(key);
    return entry !== undefined && !this.isExpired(entry);
  }

  async list(prefix?: string): Promise<WorkingMemoryEntry[]> {
    assertOpen(this.closed, 'working memory');
    return this.live()
      .filter((entry) => prefix === undefined || isUnderPrefix(entry.key, prefix))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((entry) => ({ ...entry, tags: [...entry.tags] }));
  }

  async search(query: WorkingMemorySearchQuery): Promise<WorkingMemorySearchResult[]> {
    assertOpen(this.closed, 'working memory');
    const parsed = parseWorkingMemoryQuery(query);
    const { text, maxResults } = parsed;
    const matches = (entry: WorkingMemoryEntry | undefined): entry is WorkingMemoryEntry =>
      entry !== undefined && !this.isExpired(entry) && parsed.matches(entry);
    if (text !== undefined) {
      return this.index
        .search(text, { filter: (key) => matches(this.entries.get(key)), limit: maxResults })
        .map((hit) => ({ entry: { ...this.entries.get(hit.id)!, tags: [...this.entries.get(hit.id)!.tags] }, score: hit.score }));
    }
    return this.live()
      .filter(matches)
      .sort((a, b) => new Date(b.storedAt).getTime() - new Date(a.storedAt).getTime())
      .slice(0, maxResults)
      .map((entry) => ({ entry: { ...entry, tags: [...entry.tags] }, score: 0 }));
  }

  async sweep(): Promise<number> {
    assertOpen(this.closed, 'working memory');
    return this.dropExpired();
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private live(): WorkingMemoryEntry[] {
    return [...this.entries.values()].filter((entry) => !this.isExpired(entry));
  }

  private isExpired(entry: WorkingMemoryEntry): boolean {
    return new Date(entry.expiresAt).getTime() <= this.clock.now().getTime();
  }

  private remove(key: string): void {
    this.entries.delete(key);
    this.index.delete(key);
  }

  private dropExpired(): number {
    let dropped = 0;
    for (const entry of [...this.entries.values()]) {
      if (this.isExpired(entry)) {
        this.remove(entry.key);
        dropped++;
      }
    }
    return dropped;
  }

  private enforceCap(namespace: string): void {
    const inNamespace = [...this.entries.values()]
      .filter((entry) => namespaceOf(entry.key) === namespace)
      .sort((a, b) => new Date(a.storedAt).getTime() - new Date(b.storedAt).getTime());
    for (const entry of inNamespace.slice(0, Math.max(0, inNamespace.length - this.maxPerNamespace))) this.remove(entry.key);
  }
}

function positiveInteger(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw invalidOptions(`Invalid ${field} ${String(value)}: pass a positive whole number.`, [
      { path: field, message: 'must be a positive whole number' },
    ]);
  }
  return value;
}
