import { type Period, queryPeriods } from './query-periods';
import { tokenize } from './stop-words';

/** What a memory query points to besides its words (SPEC M3): the names it holds and the periods it names. */
export interface QueryCues {
  /** Its words that begin with a capital letter, lower-cased, less stop words (see `queryNames`). */
  names: ReadonlySet<string>;
  /** The days, months and years it names with their year (see `queryPeriods`). */
  periods: readonly Period[];
}

/** The cues of a query (see `QueryCues`). Pure. */
export function queryCues(query: string): QueryCues {
  return { names: queryNames(query), periods: queryPeriods(query) };
}

/** Whether a query has cues to weigh its hits by (a memory search with none ranks by its text alone). Pure. */
export function hasCues(cues: QueryCues): boolean {
  return cues.names.size > 0 || cues.periods.length > 0;
}

/**
 * The names a query holds: its words that begin with a capital letter ("Caroline's" → "caroline"),
 * lower-cased, less stop words ("What", "Did"). Pure.
 */
export function queryNames(query: string): Set<string> {
  return new Set(
    tokenize(
      query
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => /^\p{Lu}/u.test(word))
        .join(' '),
    ),
  );
}
