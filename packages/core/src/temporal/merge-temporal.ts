import { ReverieValidationError } from '../errors/reverie-error';
import { isIsoTimestamp } from '../schemas/common';
import { mergeSubjectTimeMetadata } from './subject-time';

/** The fields of a memory entry whose merge is arithmetic the host does, never the model. */
export interface TemporalFields {
  createdAt: string;
  lastSeenAt: string;
  reinforcementCount: number;
  importance: number;
  metadata: Record<string, string>;
}

/**
 * Epoch milliseconds of an ISO timestamp with a zone (`Z` or an offset). Throws INVALID_INPUT
 * for anything else, including dates that do not exist such as `2026-02-30T00:00:00Z`.
 */
export function timestampMs(iso: string): number {
  const instant = typeof iso === 'string' && isIsoTimestamp(iso) ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(instant)) {
    throw new ReverieValidationError(
      'INVALID_INPUT',
      `Invalid timestamp ${JSON.stringify(iso)}: pass an ISO timestamp such as "2026-11-21T09:00:00.000Z".`,
      { details: { value: iso } },
    );
  }
  return instant;
}

/**
 * The earliest (`direction` -1) or latest (+1) of some timestamps, compared as instants so
 * differing offsets are handled. Equal instants written differently are settled by string
 * order, so the choice never depends on the order of the input. Returns the original string.
 */
function extremeTimestamp(values: readonly string[], direction: -1 | 1): string {
  let best: { value: string; ms: number } | undefined;
  for (const value of values) {
    const ms = timestampMs(value);
    const better = best === undefined || (ms - best.ms) * direction > 0 || (ms === best.ms && value < best.value);
    if (better) best = { value, ms };
  }
  if (best === undefined) throw new ReverieValidationError('INVALID_INPUT', 'No timestamps to compare.');
  return best.value;
}

/**
 * SPEC D4: merges the temporal fields of entries that are being folded into one. `createdAt`
 * is the earliest, `lastSeenAt` the latest (each the winning source's original string),
 * `reinforcementCount` the sum, `importance` the maximum, and `metadata` keeps only the merged
 * subject time (see `mergeSubjectTimeMetadata`). The merge never stamps the current time, and
 * it is commutative and associative. Throws INVALID_INPUT for an empty list or a bad timestamp.
 */
export function mergeTemporalFields(sources: ReadonlyArray<TemporalFields>): TemporalFields {
  if (sources.length === 0) {
    throw new ReverieValidationError('INVALID_INPUT', 'mergeTemporalFields needs at least one source to merge.', {
      details: { count: 0 },
    });
  }
  return {
    createdAt: extremeTimestamp(
      sources.map((source) => source.createdAt),
      -1,
    ),
    lastSeenAt: extremeTimestamp(
      sources.map((source) => source.lastSeenAt),
      1,
    ),
    reinforcementCount: sources.reduce((sum, source) => sum + source.reinforcementCount, 0),
    importance: sources.reduce((max, source) => Math.max(max, source.importance), Number.NEGATIVE_INFINITY),
    metadata: mergeSubjectTimeMetadata(sources.map((source) => source.metadata)),
  };
}
