import { z } from 'zod';
import {
  type HybridRecallOptions,
  type IClock,
  type ILogger,
  MAX_WORKING_MEMORY_TTL_MS,
  MAX_WORKING_MEMORY_VALUE_LENGTH,
} from '@reverie/core';
import type { VectorSearchOptions } from '../embeddings/vector-search-options';

export interface FileWorkingMemoryOptions extends HybridRecallOptions, VectorSearchOptions {
  /** The agent's data directory; entries live in `<dataPath>/working-memory/<kind>/<id>.json`, one file per namespace. */
  dataPath: string;
  clock?: IClock;
  logger?: ILogger;
  /** TTL of an entry saved without one, in ms (default 5 minutes). */
  defaultTtlMs?: number;
  /** Most entries one namespace holds; saving past it evicts the oldest (default 50). */
  maxEntriesPerNamespace?: number;
  /** How often expired entries are dropped from the files, in ms (default 1 hour; 0 turns it off). */
  sweepIntervalMs?: number;
  /** Most characters of values one namespace holds; a save past it is INVALID_INPUT (default 8,000,000). */
  maxCharsPerNamespace?: number;
}

export const DEFAULT_MAX_CHARS_PER_NAMESPACE = 8_000_000;

export const DEFAULT_WORKING_MEMORY_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** The longest delay `setInterval` accepts; anything longer silently becomes 1 ms. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

export const workingMemoryOptionsSchema = z
  .object({
    clock: z
      .custom<IClock>((value) => typeof (value as IClock | null)?.now === 'function', 'must be an IClock with a now() method')
      .optional(),
    logger: z
      .custom<ILogger>(
        (value) => typeof (value as ILogger | null)?.warn === 'function',
        'must be an ILogger with debug/info/warn/error methods',
      )
      .optional(),
    defaultTtlMs: z.number().int().positive().max(MAX_WORKING_MEMORY_TTL_MS).optional(),
    maxEntriesPerNamespace: z.number().int().positive().max(100_000).optional(),
    maxCharsPerNamespace: z.number().int().min(MAX_WORKING_MEMORY_VALUE_LENGTH).max(1_000_000_000).optional(),
    sweepIntervalMs: z.number().int().min(0).max(MAX_TIMER_DELAY_MS).optional(),
  })
  .loose();
