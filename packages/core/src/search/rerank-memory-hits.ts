import { EPISODE_TAG } from '../memory/episode-tag';
import { stemWord } from '../text/stem-word';
import { hasCues, type QueryCues } from './query-cues';
import { namesDateWithin, notedWithin } from './query-periods';
import { tokenize } from './stop-words';

/**
 * How a memory search weighs what an entry holds besides its text (SPEC M3): chosen on LoCoMo's
 * conversations 0–2 and measured on 3–4 held out (`pnpm bench:locomo`, docs/file-store.md).
 */
export const MEMORY_RERANK = {
  /** A query with cues has the text ranking's best `poolFactor × maxResults` hits (at least `minPool`) weighed… */
  poolFactor: 2,
  minPool: 16,
  /** …where an entry tagged with a name the query holds counts `1 + tagBoost` times its score… */
  tagBoost: 1,
  /** …and one noted within a day, month or year the query names (or naming one in it) gains `dateBoost` × the best score. */
  dateBoost: 1,
  /**
   * An episode (tagged `EPISODE_TAG`) at least this share of whose content words (stemmed)
   * another hit holds — one that is not an episode, or an episode ranked above it — restates it:
   * it goes after the other hits, so the two take one place of the results.
   */
  restatement: 0.7,
} as const;

/** What the re-ranking reads of an entry. */
export interface RerankedEntry {
  content: string;
  tags: readonly string[];
  createdAt: string;
  lastSeenAt: string;
}

/**
 * How many hits of the text ranking a memory search asks for to return `maxResults`: more when
 * the query has cues to weigh them by (see `MEMORY_RERANK`), `maxResults` when it has none. Pure.
 */
export function rerankPool(maxResults: number, cues: QueryCues): number {
  return hasCues(cues) ? Math.max(MEMORY_RERANK.poolFactor * maxResults, MEMORY_RERANK.minPool, maxResults) : maxResults;
}

/**
 * Two lists of hits of one ranking as one, best first, each id once (the first list's order
 * first among equal scores): a store's hits, and its hits among the entries noted within the
 * periods a query names (which may rank below the first list's last). Pure.
 */
export function mergeHitLists<T extends { id: string; score: number }>(first: readonly T[], second: readonly T[]): T[] {
  const seen = new Set(first.map((hit) => hit.id));
  const merged = [...first, ...second.filter((hit) => !seen.has(hit.id))];
  return merged
    .map((hit, order) => ({ hit, order }))
    .sort((a, b) => b.hit.score - a.hit.score || a.order - b.order)
    .map(({ hit }) => hit);
}

/**
 * Re-weighs a memory search's hits by what the query points to besides its words (`cues`), and
 * keeps the best `limit` (SPEC M3):
 * - an entry with a tag that the query names — a word the query capitalises ("john" when the
 *   question asks about John; a tag of several words needs all of them) — counts `1 + tagBoost`
 *   times its score: an entry labelled with the person or thing a question names is about it;
 * - then an entry noted within a period the query names ("in December 2023", "on 16 June, 2023")
 *   — first noted before its end and last noted after its start — or whose text names a date
 *   within it, gains `dateBoost` × the best score, so such entries come first, by their scores.
 * Ties keep the order they came in. `hits` are the text ranking's best (`rerankPool` of them, plus
 * its best among the entries noted within the periods); a hit whose entry `entryOf` does not know
 * keeps its score. Without cues, the hits as they are. With or without cues, an episode that
 * restates another hit then goes after the others (`MEMORY_RERANK.restatement`). Pure.
 */
export function rerankMemoryHits<T extends { id: string; score: number }>(
  hits: readonly T[],
  cues: QueryCues,
  entryOf: (id: string) => RerankedEntry | undefined,
  limit: number,
): T[] {
  if (hits.length === 0 || !hasCues(cues)) return withoutRestatedEpisodes(hits, entryOf, limit);
  const ranked = hits.map((hit) => ({ hit, entry: entryOf(hit.id), score: hit.score }));
  // Array.prototype.sort is stable: equal scores keep the order they had.
  const resort = () => ranked.sort((a, b) => b.score - a.score);

  if (cues.names.size > 0) {
    let boosted = false;
    for (const item of ranked) {
      if (item.entry && namedByQuery(item.entry.tags, cues.names)) {
        item.score *= 1 + MEMORY_RERANK.tagBoost;
        boosted = true;
      }
    }
    if (boosted) resort();
  }

  if (cues.periods.length > 0) {
    const best = ranked[0]!.score;
    let boosted = false;
    for (const item of ranked) {
      const entry = item.entry;
      if (entry && (notedWithin(entry, cues.periods) || namesDateWithin(entry.content, cues.periods))) {
        item.score += MEMORY_RERANK.dateBoost * best;
        boosted = true;
      }
    }
    if (boosted) resort();
  }

  return withoutRestatedEpisodes(
    ranked.map(({ hit, score }) => (score === hit.score ? hit : { ...hit, score })),
    entryOf,
    limit,
  );
}

/**
 * The best `limit` of `hits` (ranked), an episode among them that restates another hit after the
 * others (see `MEMORY_RERANK.restatement`): after a dream cycle an episode often says again what
 * a fact of the same session says, and the two would take two places of the results. The fact
 * keeps its place: it is the one that carries its sources (lineage) and its own dates. Hits are
 * taken best first until `limit` are kept; each episode among them is compared with every hit. Pure.
 */
function withoutRestatedEpisodes<T extends { id: string }>(
  hits: readonly T[],
  entryOf: (id: string) => RerankedEntry | undefined,
  limit: number,
): T[] {
  const top = hits.slice(0, limit);
  const entries = hits.map((hit) => entryOf(hit.id));
  const isEpisode = entries.map((entry) => entry?.tags.includes(EPISODE_TAG) ?? false);
  if (!isEpisode.slice(0, limit).some(Boolean)) return top;
  const words = entries.map((entry) => new Set(tokenize(entry?.content ?? '').map(stemWord)));
  const restated = (n: number) =>
    isEpisode[n] === true && words.some((other, m) => m !== n && (!isEpisode[m] || m < n) && restates(words[n]!, other));
  const kept: T[] = [];
  const demoted: T[] = [];
  for (const [n, hit] of hits.entries()) {
    if (kept.length === limit) break;
    (restated(n) ? demoted : kept).push(hit);
  }
  return [...kept, ...demoted].slice(0, limit);
}

/** Whether at least `MEMORY_RERANK.restatement` of `words` are among `other`. Pure. */
function restates(words: ReadonlySet<string>, other: ReadonlySet<string>): boolean {
  if (words.size === 0) return false;
  let shared = 0;
  for (const word of words) if (other.has(word)) shared++;
  return shared >= MEMORY_RERANK.restatement * words.size;
}

/** Whether one of `tags` is named by the query's `words` (every word of the tag is one of them). */
function namedByQuery(tags: readonly string[], words: ReadonlySet<string>): boolean {
  return tags.some((tag) => {
    const lower = tag.toLowerCase();
    // One word, the usual tag: itself (`words` holds no stop word, as `tokenize` gives none).
    if (!SEVERAL_WORDS.test(lower)) return words.has(lower);
    const tagWords = tokenize(tag);
    return tagWords.length > 0 && tagWords.every((word) => words.has(word));
  });
}

/** Anything that splits a tag into words for `tokenize`. */
const SEVERAL_WORDS = /[\s\p{P}\p{S}]/u;
