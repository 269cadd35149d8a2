import { ReverieValidationError } from '../errors/reverie-error';
import { queryNames } from '../search/query-cues';
import { tokenize } from '../search/stop-words';
import { type MemoryEntry, type MemorySearchTiers, type MemoryTier, memoryTierSchema } from '../schemas/memory-entry';

/**
 * SPEC B13: when the default search (`tiers: 'fallback'`) also reads the cold tier. The hot
 * results are weak when there are fewer of them than asked for; for a text search, also when its
 * best score is under `minBestScore` (the store's own ranking, BM25 or hybrid: a best hit under 1
 * matched only common words or a fraction of the query), or when the query names someone or
 * something (a capitalised word, `queryNames`) that none of the hot hits mentions: ten plausible
 * hits about other people are not an answer. At most `budget` × `maxResults` cold hits are read
 * before the two lists are merged by score.
 */
export const COLD_FALLBACK = Object.freeze({ minBestScore: 1, budget: 1 });

/** The tier of an entry: `cold` when it says so, `hot` otherwise. */
export function tierOf(entry: Pick<MemoryEntry, 'tier'>): MemoryTier {
  return entry.tier === 'cold' ? 'cold' : 'hot';
}

/** True when `entry` belongs in a listing filtered by `tier` (every entry when it is undefined). */
export function inTier(entry: Pick<MemoryEntry, 'tier'>, tier: MemoryTier | undefined): boolean {
  return tier === undefined || tierOf(entry) === tier;
}

/** SPEC B13: true when the hot results of a `fallback` search for `text` (undefined: browsing) call for the cold tier (see `COLD_FALLBACK`). Pure. */
export function hotResultsAreWeak(hits: readonly TierHit[], maxResults: number, text: string | undefined): boolean {
  if (hits.length < maxResults) return true;
  if (text === undefined) return false;
  if ((hits[0]?.score ?? 0) < COLD_FALLBACK.minBestScore) return true;
  const names = queryNames(text);
  if (names.size === 0) return false;
  return !hits.some((hit) => mentionsAll(hit, names));
}

/** A hit as `searchTiers` reads it. */
export interface TierHit {
  entry: Pick<MemoryEntry, 'content' | 'tags'>;
  score: number;
}

/**
 * SPEC B13: one search over the tiers a query names, given how a store searches one tier (best
 * first, at most `limit`). `hot`: the hot tier; `all`: both, merged by score; `fallback`: the hot
 * tier, and the cold one within its budget when the hot results are weak. Every store runs this,
 * so they all fall back alike.
 */
export async function searchTiers<T extends TierHit>(
  tiers: MemorySearchTiers,
  maxResults: number,
  text: string | undefined,
  searchTier: (tier: MemoryTier, limit: number) => T[] | Promise<T[]>,
): Promise<T[]> {
  const hot = await searchTier('hot', maxResults);
  if (tiers === 'hot') return hot;
  if (tiers === 'fallback' && !hotResultsAreWeak(hot, maxResults, text)) return hot;
  const budget = tiers === 'all' ? maxResults : Math.max(1, Math.ceil(maxResults * COLD_FALLBACK.budget));
  const cold = await searchTier('cold', budget);
  if (cold.length === 0) return hot;
  // The two tiers' scores come from two indexes: a hit that mentions every name the query holds
  // comes first, then by score (stable: equal scores keep hot hits first).
  const names = text === undefined ? new Set<string>() : queryNames(text);
  const named = (hit: TierHit) => (names.size > 0 && mentionsAll(hit, names) ? 1 : 0);
  return [...hot, ...cold].sort((a, b) => named(b) - named(a) || b.score - a.score).slice(0, maxResults);
}

function mentionsAll(hit: TierHit, names: ReadonlySet<string>): boolean {
  const words = new Set(tokenize(`${hit.entry.content} ${hit.entry.tags.join(' ')}`));
  return [...names].every((name) => words.has(name));
}

/** Checks the `tier` of a `list` call: INVALID_INPUT unless it is `hot`, `cold` or left out. */
export function parseListTier(tier: unknown): MemoryTier | undefined {
  if (tier === undefined) return undefined;
  const parsed = memoryTierSchema.safeParse(tier);
  if (parsed.success) return parsed.data;
  throw new ReverieValidationError(
    'INVALID_INPUT',
    `Invalid tier ${JSON.stringify(tier)}: list({ tier }) takes "hot" or "cold", or no tier for both.`,
    {
      details: { value: tier },
    },
  );
}
