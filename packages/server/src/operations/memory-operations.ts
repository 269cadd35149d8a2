import {
  DEFAULT_SEARCH_RESULTS,
  MAX_SEARCH_RESULTS,
  MAX_SEARCH_TEXT_LENGTH,
  type MemoryEntry,
  memorySearchTiersSchema,
  memoryTierSchema,
  ReverieError,
  tierOf,
} from '@reverie/core';
import { isSystemCategory, refuseSystemCategory } from '@reverie/core/internal';
import { type Reverie, selectorFrom } from 'reverie';
import { z } from 'zod';
import { injectionWarnings } from './injection-warnings';
import { defineOperation } from './operation';
import { memoryOf } from './services';
import { asUntrustedData, UNTRUSTED_DATA_NOTE } from './untrusted-data';

/**
 * An entry as the server answers it: as stored, with its tier (SPEC B13) and what its importance is worth now (SPEC D7),
 * marked as untrusted data (SPEC B4).
 */
export function servedEntry(reverie: Reverie, entry: MemoryEntry) {
  // SPEC B13: the tier is always spelled out (a store leaves it out for hot entries).
  return asUntrustedData({ ...entry, tier: tierOf(entry), effectiveImportance: reverie.importanceOf(entry) });
}

const id = z.string().describe('The entry id (12 lowercase hex characters)');
const category = z.string().describe('A category, a slash path such as preferences/units (_system/ is reserved for Reverie)');
const tags = z.array(z.string()).describe('Tags');
const importance = z.number().min(0).max(1).describe('Importance from 0 to 1');

/**
 * SPEC O7: an entry under `_system/` is Reverie's own; no operation changes or deletes one
 * (INVALID_CATEGORY), and the searches and listings never show one.
 */
function refuseSystemEntry(entry: MemoryEntry): void {
  refuseSystemCategory(entry.category);
}

function notFound(entryId: string): ReverieError {
  return new ReverieError('NOT_FOUND', `No memory entry has the id ${entryId}: find ids with search_memory or list_memory.`, {
    details: { id: entryId },
  });
}

export const memorySave = defineOperation({
  name: 'save_memory',
  title: 'Save a memory',
  description: `Saves a new long-term memory entry and returns it as stored (with its id). Content that reads like instructions to an AI is saved too, with a LIKELY_INJECTION entry in warnings. ${UNTRUSTED_DATA_NOTE}`,
  access: 'write',
  input: z.object({
    content: z.string().min(1).describe('The fact to remember'),
    category: category.optional(),
    tags: tags.optional(),
    importance: importance.optional(),
  }),
  http: { method: 'POST', path: '/api/memory', status: 201 },
  async run(input, { reverie }) {
    return { ...servedEntry(reverie, await memoryOf(reverie).save(input)), ...injectionWarnings(input.content) };
  },
});

export const memoryUpdate = defineOperation({
  name: 'update_memory',
  title: 'Change a memory',
  description: `Changes the content, category, tags or importance of an entry; the fields not given are kept. With ifUpdatedAt, the change is refused (CONFLICT) when the entry changed since that time. New content that reads like instructions to an AI is saved too, with a LIKELY_INJECTION entry in warnings. ${UNTRUSTED_DATA_NOTE}`,
  access: 'write',
  input: z.object({
    id,
    content: z.string().min(1).optional(),
    category: category.optional(),
    tags: tags.optional(),
    importance: importance.optional(),
    ifUpdatedAt: z.string().optional().describe('The updatedAt the caller last read'),
  }),
  http: { method: 'POST', path: '/api/memory/{id}' },
  async run({ id: entryId, ifUpdatedAt, ...changes }, { reverie }) {
    const memory = memoryOf(reverie);
    const current = await memory.get(entryId);
    if (current === undefined) throw notFound(entryId);
    refuseSystemEntry(current);
    const { updatedAt, ...kept } = current;
    const saved = await memory.save({ ...kept, ...changes }, { ifUpdatedAt: ifUpdatedAt ?? updatedAt });
    return { ...servedEntry(reverie, saved), ...injectionWarnings(changes.content) };
  },
});

export const memoryGet = defineOperation({
  name: 'get_memory',
  title: 'Read a memory',
  description: `One long-term memory entry by id; NOT_FOUND when there is none. ${UNTRUSTED_DATA_NOTE}`,
  access: 'read',
  input: z.object({ id }),
  http: { method: 'GET', path: '/api/memory/{id}' },
  async run({ id: entryId }, { reverie }) {
    const entry = await memoryOf(reverie).get(entryId);
    if (entry === undefined) throw notFound(entryId);
    return servedEntry(reverie, entry);
  },
});

export const memoryLineage = defineOperation({
  name: 'get_memory_lineage',
  title: 'Where a memory came from',
  description:
    "An entry's lineage (SPEC B10), oldest first, as the entry itself records it (it outlives the run folders): the entries merged into it or superseded by it (also those no longer stored), how it was written (api, tool, import, session, feedback, merge) and the dream run of each step. NOT_FOUND when there is no such entry.",
  access: 'read',
  input: z.object({ id }),
  http: { method: 'GET', path: '/api/memory/{id}/lineage' },
  async run({ id: entryId }, { reverie }) {
    return memoryOf(reverie).history(entryId);
  },
});

export const memoryDelete = defineOperation({
  name: 'delete_memory',
  title: 'Delete a memory',
  description: 'Deletes one long-term memory entry by id; NOT_FOUND when there is none.',
  access: 'write',
  input: z.object({ id }),
  http: { method: 'DELETE', path: '/api/memory/{id}' },
  async run({ id: entryId }, { reverie }) {
    const memory = memoryOf(reverie);
    const current = await memory.get(entryId);
    if (current === undefined) throw notFound(entryId);
    refuseSystemEntry(current);
    if (!(await memory.delete(entryId, { ifUpdatedAt: current.updatedAt }))) throw notFound(entryId);
    return { id: entryId, deleted: true };
  },
});

export const memoryForget = defineOperation({
  name: 'forget_memory',
  title: 'Forget memories',
  description:
    "SPEC B14: forgets entries at the user's request — by ids, every entry holding some words (text, any letter case), or everything about a subject (every word of a name or phrase, in any form). They leave recall at once, in one dream run that undo_dream_run brings back, and the dream cycle and fact extraction do not learn them again. mode soft (the default) is undoable; mode erase removes every copy of their text (run archives and artifacts, logs, lineage excerpts, rows) and leaves a tombstone of keyed hashes, not undoable. Answers the receipt: what was forgotten (ids and categories), ids not found, entries that changed meanwhile, the run id (soft), or where the text was found and what was removed or rewritten (erase).",
  access: 'write',
  input: z.object({
    ids: z.array(id).optional().describe('The entries to forget'),
    text: z.string().optional().describe('Forget every entry whose content holds these words'),
    subject: z.string().optional().describe('Forget every entry about this name or phrase'),
    mode: z
      .enum(['soft', 'erase'])
      .optional()
      .describe('soft (the default): undoable, not learnt again; erase: every copy of the text removed, not undoable'),
  }),
  http: { method: 'POST', path: '/api/memory/forget' },
  async run({ mode, ...fields }, { reverie }) {
    return memoryOf(reverie).forget(selectorFrom(fields, 'forget_memory'), mode === undefined ? {} : { mode });
  },
});

export const memorySearch = defineOperation({
  name: 'search_memory',
  title: 'Search memory',
  description: `Ranked recall over long-term memory, the way the agent recalls: BM25 over content, tags and category (and a second hop when the agent has one), best first. ${UNTRUSTED_DATA_NOTE}`,
  access: 'read',
  input: z.object({
    query: z.string().min(1).max(MAX_SEARCH_TEXT_LENGTH).describe('What to look for'),
    category: category.optional().describe('Only entries in this category or below it'),
    tags: tags.optional().describe('Only entries carrying every one of these tags'),
    limit: z.number().int().min(1).max(MAX_SEARCH_RESULTS).default(DEFAULT_SEARCH_RESULTS).describe('At most this many results'),
    tiers: memorySearchTiersSchema
      .default('fallback')
      .describe('fallback (default): hot entries, then cold ones when the hot results are weak; hot: hot only; all: both'),
  }),
  http: { method: 'GET', path: '/api/memory/search' },
  async run({ query, limit, ...filters }, { reverie }) {
    refuseSystemCategory(filters.category);
    const results = await memoryOf(reverie).recall({ text: query, maxResults: limit, ...filters });
    return results.map(({ entry, score }) => ({ entry: servedEntry(reverie, entry), score }));
  },
});

export const memoryList = defineOperation({
  name: 'list_memory',
  title: 'Browse memory',
  description: `Long-term memory entries, oldest first, optionally under one category (browse by category), a page at a time. ${UNTRUSTED_DATA_NOTE}`,
  access: 'read',
  input: z.object({
    category: category.optional().describe('Only entries in this category or below it'),
    offset: z.number().int().min(0).default(0).describe('How many entries to skip'),
    limit: z.number().int().min(1).max(1000).default(100).describe('At most this many entries'),
    tier: memoryTierSchema.optional().describe('Only the entries of this tier, hot or cold (default both)'),
  }),
  http: { method: 'GET', path: '/api/memory' },
  async run({ category: under, offset, limit, tier }, { reverie }) {
    refuseSystemCategory(under);
    const entries = (
      await memoryOf(reverie).list({ ...(under === undefined ? {} : { category: under }), ...(tier === undefined ? {} : { tier }) })
    ).filter((entry) => !isSystemCategory(entry.category));
    return { total: entries.length, offset, entries: entries.slice(offset, offset + limit).map((entry) => servedEntry(reverie, entry)) };
  },
});

export const memoryCategories = defineOperation({
  name: 'list_memory_categories',
  title: 'List categories',
  description: 'Each category of long-term memory in use, with its number of entries.',
  access: 'read',
  input: z.object({}),
  http: { method: 'GET', path: '/api/memory/categories' },
  async run(_input, { reverie }) {
    return (await memoryOf(reverie).listCategories()).filter(({ category }) => !isSystemCategory(category));
  },
});
