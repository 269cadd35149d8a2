import type { IClock } from '../interfaces/clock';
import type { WriteCondition } from '../interfaces/long-term-memory';
import { assertValidId, newId } from '../ids/new-id';
import { parseRecord } from '../schemas/parse-record';
import { DEFAULT_CATEGORY, DEFAULT_IMPORTANCE, type MemoryDraft, type MemoryEntry, memoryDraftSchema, memoryEntrySchema } from '../schemas/memory-entry';
import { checkCondition, nextTimestamp } from '../stores/write-condition';
import { validateCategory } from '../validation/path-name';

/**
 * Turns a draft into the entry to store, following the rules of `MemoryDraft`: a new entry gets
 * an id and times; a replaced entry keeps the temporal fields and importance the draft leaves
 * out; `updatedAt` is always stamped now (strictly after the previous one). Pure apart from the
 * clock and the id generator; file and custom stores can reuse it.
 */
export function resolveMemoryDraft(
  draft: MemoryDraft,
  lookup: (id: string) => MemoryEntry | undefined,
  clock: IClock,
  condition?: WriteCondition,
): MemoryEntry {
  if (draft?.id !== undefined) assertValidId(draft.id);
  if (draft?.category !== undefined) validateCategory(draft.category);
  const parsed = parseRecord(memoryDraftSchema, draft, 'memory entry');
  const existing = parsed.id === undefined ? undefined : lookup(parsed.id);
  checkCondition(`Memory entry ${parsed.id ?? '(new)'}`, existing, condition);
  const now = nextTimestamp(clock, existing?.updatedAt);
  const entry: MemoryEntry = {
    id: parsed.id ?? newId(),
    content: parsed.content,
    category: parsed.category ?? DEFAULT_CATEGORY,
    tags: [...new Set(parsed.tags ?? [])],
    createdAt: parsed.createdAt ?? existing?.createdAt ?? now,
    updatedAt: now,
    lastSeenAt: parsed.lastSeenAt ?? existing?.lastSeenAt ?? parsed.createdAt ?? now,
    reinforcementCount: parsed.reinforcementCount ?? existing?.reinforcementCount ?? 1,
    importance: parsed.importance ?? existing?.importance ?? DEFAULT_IMPORTANCE,
    metadata: parsed.metadata ?? {},
  };
  return parseRecord(memoryEntrySchema, entry, 'memory entry');
}

