import {
  assertValidId,
  type CategoryCount,
  type ILongTermMemory,
  type IMemoryChangeFeed,
  type MemoryDraft,
  type MemoryEntry,
  type MemoryListOptions,
  type MemoryHistory,
  memoryHistory,
  type MemorySearchQuery,
  type MemorySearchResult,
  ReverieError,
  type WriteCondition,
  hasTiers,
  parseListTier,
} from '@reverie/core';
import { refuseSystemCategory } from '@reverie/core/internal';
import type { ForgetOptions, ForgetSelector } from './forgetting/forget-selector';
import type { ErasureReceipt } from './forgetting/memory-erasure';
import type { ForgetReceipt, MemoryForgetting, SoftForgetReceipt } from './forgetting/memory-forgetting';
import { type RecallSearch, recallSearch } from '../recall/recall-search';
import { optionalPartsOf } from './optional-parts-of';
import { searchOutsideSystem } from '../recall/search-outside-system';

/**
 * SPEC B10: a new entry saved through the API without a lineage of its own was written by the
 * API. A draft with an `id` (a replacement, an import or a migration) is left as given. Pure.
 */
export function withApiOrigin(draft: MemoryDraft): MemoryDraft {
  if (draft === null || typeof draft !== 'object' || draft.id !== undefined || draft.lineage !== undefined) return draft;
  return { ...draft, lineage: { origin: { kind: 'api' } } };
}

/**
 * `reverie.memory`: the long-term memory store as the application sees it. It forwards every
 * call to `store` (the one `.withMemory()` or `.use()` registered), gives a new entry saved
 * without a lineage the origin `api` (SPEC B10), answers `history(id)`, and searches the way the
 * agent recalls (`recall`). `_system/` is Reverie's own (SPEC O7): `save` refuses it
 * (INVALID_CATEGORY) and the searches never return it. The dream engine writes through `store`.
 */
export class ReverieMemory implements ILongTermMemory {
  readonly changes?: IMemoryChangeFeed['changes'];
  readonly neighbours?: IMemoryChangeFeed['neighbours'];
  readonly compactChanges?: IMemoryChangeFeed['compactChanges'];
  readonly neighbourIds?: IMemoryChangeFeed['neighbourIds'];
  /** SPEC B13: as the store says. */
  readonly tiers?: boolean;

  /** See `recall`. */
  private readonly recallWith: RecallSearch;
  /** See `search`. */
  private readonly searchWith: RecallSearch;

  /** What the calls go through: `store`, or `store` with spans around them (SPEC E3). */
  private readonly calls: ILongTermMemory;
  /** See `forget`. */
  private readonly forgetting: MemoryForgetting | undefined;

  /**
   * `secondHop`: `recall` searches a second time for the best hit's names (`withMemory({ secondHop })`).
   * `forgetting`: what `forget` runs (the builder gives it; without it `forget` is refused).
   * `through`: the same store with spans around its calls (`createReverie({ telemetry })`), which
   * the calls then go through; `store` stays the one registered.
   */
  constructor(
    readonly store: ILongTermMemory,
    options: { secondHop?: boolean; forgetting?: MemoryForgetting; through?: ILongTermMemory } = {},
  ) {
    const calls = options.through ?? store;
    this.calls = calls;
    this.forgetting = options.forgetting;
    this.recallWith = searchOutsideSystem(recallSearch(calls, options.secondHop ?? false));
    this.searchWith = searchOutsideSystem((query) => calls.search(query));
    Object.assign(this, optionalPartsOf(store));
  }

  get(id: string): Promise<MemoryEntry | undefined> {
    return this.calls.get(id);
  }

  /** Saves `draft` through the store; a category under `_system/` is refused (INVALID_CATEGORY) and nothing is written. */
  async save(draft: MemoryDraft, condition?: WriteCondition): Promise<MemoryEntry> {
    if (draft !== null && typeof draft === 'object') refuseSystemCategory(draft.category);
    return this.calls.save(withApiOrigin(draft), condition);
  }

  /** Deletes entry `id` through the store; one under `_system/` is the host's, and refused (INVALID_CATEGORY). */
  async delete(id: string, condition?: WriteCondition): Promise<boolean> {
    const entry = await this.calls.get(id);
    if (entry) refuseSystemCategory(entry.category);
    return this.calls.delete(id, condition);
  }

  /** The store's search, without the entries under `_system/` (asking the store for more when they took places). */
  search(query: MemorySearchQuery): Promise<MemorySearchResult[]> {
    return this.searchWith(query);
  }

  /**
   * A search the way per-turn recall and the `search_memory` tool run it: `search`, and with
   * `withMemory({ secondHop: true })` a second search for the names the best hit holds and the
   * query does not (see docs/file-store.md, "A second hop"). `search` itself searches once.
   */
  recall(query: MemorySearchQuery): Promise<MemorySearchResult[]> {
    return this.recallWith(query);
  }

  /**
   * Both tiers, or one with `{ tier }` (SPEC B13). A store without tiers holds every entry hot:
   * its cold tier is empty, and `tier` is not passed on to it (INVALID_INPUT for another value).
   */
  async list(options?: MemoryListOptions): Promise<MemoryEntry[]> {
    if (options?.tier === undefined || hasTiers(this.store)) return this.calls.list(options);
    const { tier, ...rest } = options;
    return parseListTier(tier) === 'cold' ? [] : this.calls.list(rest);
  }

  listCategories(): Promise<CategoryCount[]> {
    return this.calls.listCategories();
  }

  close(): Promise<void> {
    return this.calls.close();
  }

  /**
   * SPEC B14: takes entries out of memory at the user's request. `selector` is one of `{ ids }`,
   * `{ text }` (entries whose content holds these words, in any letter case) or `{ subject }` (entries
   * holding every word of a name or phrase, in any form, as recall matches). `mode: 'soft'` (the
   * default): they leave recall and the per-turn context at once, in one dream run that
   * `reverie.dreams.undo(receipt.runId)` reverses, and the dream cycle and fact extraction refuse to
   * learn them again from the conversation (see docs/reliability.md, "Forgetting"). Returns what was
   * forgotten; INVALID_OPTIONS for a bad selector or option, LOCK_HELD while a dream run holds the scope.
   * `mode: 'erase'`: every copy of their text is removed — the entries, lineage excerpts, run
   * archives and artifacts, logs, journals, recall events, plans, rows — and a tombstone of keyed
   * hashes is left; it cannot be undone, and undo of a run it rewrote is refused. Returns the
   * erasure receipt (found where, removed or rewritten, places checked).
   */
  forget(selector: ForgetSelector, options?: { mode?: 'soft' }): Promise<SoftForgetReceipt>;
  forget(selector: ForgetSelector, options: { mode: 'erase' }): Promise<ErasureReceipt>;
  forget(selector: ForgetSelector, options?: ForgetOptions): Promise<ForgetReceipt>;
  async forget(selector: ForgetSelector, options?: ForgetOptions): Promise<ForgetReceipt> {
    if (!this.forgetting) {
      throw new ReverieError(
        'INVALID_OPTIONS',
        'forget needs the instance the builder made: use reverie.memory of createReverie(…).build().',
      );
    }
    return this.forgetting.forget(selector, options);
  }

  /**
   * SPEC B10: the chain entry `id` descends from, through merges and supersessions, oldest first
   * (`memoryHistory` of `@reverie/core`): what its lineage recorded, so ancestors the store no
   * longer holds are shown too, each step saying whether it is still stored. NOT_FOUND when the
   * store has no entry `id` (a merged source is deleted: ask for the entry it was merged into).
   */
  async history(id: string): Promise<MemoryHistory> {
    assertValidId(id);
    const entry = await this.calls.get(id);
    if (!entry) {
      throw new ReverieError(
        'NOT_FOUND',
        `Memory entry ${id} does not exist: a merged entry's history is on the entry it was merged into (search for it, then ask for its history).`,
        {
          details: { id },
        },
      );
    }
    const ids = new Set((entry.lineage?.ancestors ?? []).map((ancestor) => ancestor.id));
    const stored = new Set<string>();
    for (const ancestor of ids) if (await this.calls.get(ancestor)) stored.add(ancestor);
    return memoryHistory(entry, (ancestor) => ancestor === id || stored.has(ancestor));
  }
}
