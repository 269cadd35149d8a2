import type { IClock } from '../interfaces/clock';
import type { WriteCondition } from '../interfaces/long-term-memory';
import { assertValidId, newId } from '../ids/new-id';
import { parseDraft, parseRecord } from '../schemas/parse-record';
import {
  DEFAULT_CATEGORY,
  DEFAULT_IMPORTANCE,
  type MemoryDraft,
  type MemoryEntry,
  memoryDraftSchema,
  memoryEntrySchema,
} from '../schemas/memory-entry';
import type { z } from 'zod';

type MemoryDraftFields = z.output<typeof memoryDraftSchema>;
import { checkCondition, nextTimestamp } from '../stores/write-condition';
import { DEFAULT_DECAY_OPTIONS, type DecayOptions, withEffectiveImportance } from '../temporal/importance-decay';
import { validateCategory } from '../validation/path-name';

/**
 * Turns a draft into the entry to store, following the rules of `MemoryDraft`: a new entry gets
 * an id and times; a replaced entry keeps the temporal fields and importance the draft leaves
 * out; `updatedAt` is always stamped now (strictly after the previous one). Pure apart from the
 * clock and the id generator; file and custom stores can reuse it.
 *
 * `decay` (the store's D7 options) is used only when a draft moves `lastSeenAt` of an entry
 * whose importance it leaves alone: the importance decayed so far is stored, as of now.
 */
export function resolveMemoryDraft(
  draft: MemoryDraft,
  lookup: (id: string) => MemoryEntry | undefined,
  clock: IClock,
  condition?: WriteCondition,
  decay: DecayOptions = DEFAULT_DECAY_OPTIONS,
): MemoryEntry {
  if (draft?.id !== undefined) assertValidId(draft.id);
  if (draft?.category !== undefined) validateCategory(draft.category);
  const parsed = parseDraft(memoryDraftSchema, draft, 'memory entry');
  const existing = parsed.id === undefined ? undefined : lookup(parsed.id);
  checkCondition(`Memory entry ${parsed.id ?? '(new)'}`, existing, condition);
  const now = nextTimestamp(clock, existing?.updatedAt);
  const lastSeenAt = parsed.lastSeenAt ?? existing?.lastSeenAt ?? parsed.createdAt ?? now;
  const entry: MemoryEntry = {
    id: parsed.id ?? newId(),
    content: parsed.content,
    category: parsed.category ?? DEFAULT_CATEGORY,
    tags: [...new Set(parsed.tags ?? [])],
    createdAt: parsed.createdAt ?? existing?.createdAt ?? now,
    updatedAt: now,
    lastSeenAt,
    reinforcementCount: parsed.reinforcementCount ?? existing?.reinforcementCount ?? 1,
    ...resolveImportance(parsed, existing, lastSeenAt, now, decay),
    metadata: parsed.metadata ?? {},
    ...resolveValidity(parsed, existing),
    ...resolveLineage(parsed.lineage, existing, now),
    ...((parsed.tier ?? existing?.tier) === 'cold' ? { tier: 'cold' as const } : {}),
  };
  return parseRecord(memoryEntrySchema, entry, 'memory entry');
}

/**
 * SPEC B9: the validity fields of the stored entry. A field the draft leaves out is kept from
 * the stored entry (as temporal fields are), `null` removes it, a value replaces it. Absent
 * fields are left out of the entry, never written as `undefined`.
 */
function resolveValidity(
  draft: Pick<MemoryDraftFields, 'validFrom' | 'validTo' | 'supersededBy'>,
  existing: MemoryEntry | undefined,
): Pick<MemoryEntry, 'validFrom' | 'validTo' | 'supersededBy'> {
  const resolved: Pick<MemoryEntry, 'validFrom' | 'validTo' | 'supersededBy'> = {};
  for (const field of ['validFrom', 'validTo', 'supersededBy'] as const) {
    const given = draft[field];
    const value = given === undefined ? existing?.[field] : (given ?? undefined);
    if (value !== undefined) resolved[field] = value;
  }
  return resolved;
}

/**
 * SPEC B10: the lineage of the stored entry. Left out of the draft: kept from the stored entry;
 * `null`: removed; a value replaces it, its origin dated at the write when it gives no `at`.
 */
function resolveLineage(draft: MemoryDraftFields['lineage'], existing: MemoryEntry | undefined, now: string): Pick<MemoryEntry, 'lineage'> {
  if (draft === undefined) return existing?.lineage === undefined ? {} : { lineage: existing.lineage };
  if (draft === null) return {};
  const { origin, ...rest } = draft;
  return { lineage: origin === undefined ? rest : { ...rest, origin: { ...origin, at: origin.at ?? now } } };
}

/**
 * The stored importance pair (SPEC D7, see `MemoryDraft`). A draft that leaves importance out or
 * repeats the stored pair (a spread of the stored entry) keeps it, with the decay accrued so far
 * written in when `lastSeenAt` moves (the grace period restarts from the new `lastSeenAt`, the
 * decay before it stays). Otherwise the draft's own `importanceAt` wins, a new importance on an
 * existing entry counts as of now, and a new entry's counts as of `lastSeenAt`.
 */
function resolveImportance(
  draft: { importance?: number | undefined; importanceAt?: string | undefined },
  existing: MemoryEntry | undefined,
  lastSeenAt: string,
  now: string,
  decay: DecayOptions,
): Pick<MemoryEntry, 'importance' | 'importanceAt'> {
  const pair = (importance: number, importanceAt: string | undefined) =>
    importanceAt === undefined ? { importance } : { importance, importanceAt };
  const repeatsStored =
    existing !== undefined &&
    (draft.importance === undefined || draft.importance === existing.importance) &&
    (draft.importanceAt === undefined || draft.importanceAt === existing.importanceAt);
  if (repeatsStored) {
    const kept = lastSeenAt === existing.lastSeenAt ? existing : withEffectiveImportance(existing, new Date(now), decay);
    return pair(kept.importance, kept.importanceAt);
  }
  if (draft.importanceAt !== undefined) return pair(draft.importance ?? existing?.importance ?? DEFAULT_IMPORTANCE, draft.importanceAt);
  if (!existing) return pair(draft.importance ?? DEFAULT_IMPORTANCE, undefined);
  return pair(draft.importance ?? existing.importance, now);
}
