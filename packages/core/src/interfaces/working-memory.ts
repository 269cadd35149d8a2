import type {
  WorkingMemoryEntry,
  WorkingMemorySearchQuery,
  WorkingMemorySearchResult,
  WorkingMemorySetOptions,
} from '../schemas/working-memory-entry';

/**
 * SPEC M7: scratch space keyed by full paths whose first two segments are the namespace
 * (`session/<id>`, `patrol/<task>`, `subagent/<task>`). Entries expire after their TTL; a
 * namespace holds at most a fixed number of entries, the oldest evicted first. Expired entries
 * are never returned. Namespace rules for callers (write only your own) live in the tools,
 * which bind a namespace; the store accepts any valid key.
 */
export interface IWorkingMemory {
  set(key: string, value: string, options?: WorkingMemorySetOptions): Promise<WorkingMemoryEntry>;
  get(key: string): Promise<WorkingMemoryEntry | undefined>;
  delete(key: string): Promise<boolean>;
  /** Live entries whose key equals or lies below `prefix` (all when omitted), sorted by key. */
  list(prefix?: string): Promise<WorkingMemoryEntry[]>;
  /** BM25 over key, value, category and tags; without text, newest first. */
  search(query: WorkingMemorySearchQuery): Promise<WorkingMemorySearchResult[]>;
  /** Drops expired entries now; returns how many were dropped. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}
