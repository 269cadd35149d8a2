import { idSchema, isValidId, timestampSchema } from '@reverie/core';
import { z } from 'zod';
import { type FingerprintChange, type FingerprintLookup, SeenFingerprints } from './seen-fingerprints';

const positionSchema = z.object({ at: timestampSchema, id: z.string() });

/**
 * A record of short strings keyed by entry id, checked in one plain loop: how cursors written
 * before the fingerprints had files of their own kept `seen` (read once, to migrate it), and how
 * a plan hands the fingerprints of what it considered to `commit`.
 */
export const fingerprintsSchema = z.custom<Record<string, string>>(
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    return Object.entries(value).every(([key, fingerprint]) => isValidId(key) && typeof fingerprint === 'string');
  },
  { message: 'seen must map entry ids to fingerprints' },
);
export type CursorPosition = z.infer<typeof positionSchema>;

/**
 * SPEC D18, B1: what the pass remembers between runs, in
 * `_system/dreams/cursors/memory-consolidation.json`, written only after a run was applied.
 */
export const consolidationCursorSchema = z.object({
  version: z.literal(1),
  /** `updatedAt` (and id, for ties) of the newest entry already considered. */
  entries: positionSchema.optional(),
  /**
   * SPEC B12: the memory store's change-feed cursor after the last change the model step
   * considered. With it, a run reads what changed instead of listing every entry.
   */
  feed: z.string().optional(),
  /** The change-feed cursor of the deterministic pre-pass when no model is configured. */
  prepass: z.string().optional(),
  /**
   * Entries the pass wrote itself after the model saw their sources, with the `updatedAt` the
   * store gave them: newer than `entries`, yet not a change to review again. An entry changed by
   * anyone since has another `updatedAt` and counts as changed.
   */
  written: z.record(idSchema, timestampSchema).default({}),
  /** Timestamp (and id) of the newest feedback signal already shown to the model. */
  feedback: positionSchema.optional(),
  /** `seen` as cursors kept it before `seenFiles`: read once, to migrate it. */
  seen: fingerprintsSchema.optional(),
  /**
   * Where the fingerprints of `seen` are (see `ConsolidationCursorFile`): the generation of the
   * sorted file and its log, and how many bytes of the log belong to applied runs.
   */
  seenFiles: z.object({ generation: idSchema, log: z.number().int().nonnegative() }).optional(),
  /**
   * Items whose merge or rewrite the guards refused for a reason the model can fix: offered to
   * the model again once `after` has passed, at most `maxRetries` times (SPEC B11).
   */
  retry: z.record(z.string(), z.object({ attempts: z.number().int().min(1), after: timestampSchema })).default({}),
});
/** The cursor as stored, `seen` as the record cursors kept before it had files of its own. */
export type StoredConsolidationCursor = z.output<typeof consolidationCursorSchema>;

export type ConsolidationCursor = Omit<StoredConsolidationCursor, 'seen'> & {
  /**
   * The wording (content, category, tags) of every live entry already considered, as a short
   * hash. An entry rewritten by something that leaves its wording alone — the importance-decay
   * pass, a promotion — has a newer `updatedAt` but is not a change worth a model call (B1).
   */
  seen: FingerprintLookup;
};

/** The cursor before any run. */
export const EMPTY_CURSOR: ConsolidationCursor = Object.freeze({
  version: 1,
  written: Object.freeze({}),
  seen: SeenFingerprints.empty(),
  retry: Object.freeze({}),
}) as ConsolidationCursor;

/** What a run changes of `seen`: the changes, and the live ids when the run listed every entry (the rest are forgotten). */
export interface SeenUpdate {
  changes: readonly FingerprintChange[];
  live?: ReadonlySet<string>;
}
