import type { IClock } from '../interfaces/clock';
import { parseDraft, parseRecord } from '../schemas/parse-record';
import {
  type WorkingMemoryEntry,
  workingMemoryEntrySchema,
  type WorkingMemorySetOptions,
  workingMemorySetOptionsSchema,
} from '../schemas/working-memory-entry';
import { validateCategory, validateWorkingMemoryKey } from '../validation/path-name';

/**
 * The entry `IWorkingMemory.set` stores: stamped now, expiring after the given TTL or the
 * store's default. Validates key and options first (INVALID_KEY, INVALID_CATEGORY, INVALID_INPUT).
 */
export function buildWorkingMemoryEntry(
  key: string,
  value: string,
  options: WorkingMemorySetOptions,
  clock: IClock,
  defaultTtlMs: number,
): WorkingMemoryEntry {
  validateWorkingMemoryKey(key);
  if (options?.category !== undefined) validateCategory(options.category);
  const parsed = parseRecord(workingMemorySetOptionsSchema, options, 'working-memory options');
  const now = clock.now();
  return parseDraft(
    workingMemoryEntrySchema,
    {
      key,
      value,
      storedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + (parsed.ttlMs ?? defaultTtlMs)).toISOString(),
      ...(parsed.category === undefined ? {} : { category: parsed.category }),
      tags: [...new Set(parsed.tags ?? [])],
    },
    'working-memory entry',
  );
}
