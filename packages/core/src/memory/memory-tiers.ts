import { ReverieValidationError } from '../errors/reverie-error';
import { type MemoryEntry, type MemorySearchTiers, type MemoryTier, memoryTierSchema } from '../schemas/memory-entry';

/**
 * SPEC B13: when the default search (`tiers: 'fallback'`) also reads the cold tier. The hot
 * results are weak when there are fewer of them than asked for, or when a text search's best
 * score is under `minBestScore`. The scores are the store's own ranking (BM25, with hybrid recall
 * its fused score): a best hit under 1 matched only common words or a fraction of the query.
 * At most `budget` × `maxResults` cold hits are read before the two lists are merged by score.
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

/** SPEC B13: true when the hot results of a `fallback` search call for the cold tier (see `COLD_FALLBACK`). Pure. */
export function hotResultsAreWeak(hits: readonly { score: number }[], maxResults: number, byText: boolean): boolean {
  if (hits.length < maxResults) return true;
  return byText && (hits[0]?.score ?? 0) < COLD_FALLBACK.minBestScore;
}

/**
 * SPEC B13: one search over the tiers a query names, given how a store searches one tier (best
 * first, at most `limit`). `hot`: the hot tier; `all`: both, merged by score; `fallback`: the hot
 * tier, and the cold one within its budget when the hot results are weak. Every store runs this,
 * so they all fall back alike.
 */
export async function searchTiers<T extends { score: number }>(
  tiers: MemorySearchTiers,
  maxResults: number,
  byText: boolean,
  searchTier: (tier: MemoryTier, limit: number) => T[] | Promise<T[]>,
): Promise<T[]> {
  const hot = await searchTier('hot', maxResults);
  if (tiers === 'hot') return hot;
  if (tiers === 'fallback' && !hotResultsAreWeak(hot, maxResults, byText)) return hot;
  const budget = tiers === 'all' ? maxResults : Math.max(1, Math.ceil(maxResults * COLD_FALLBACK.budget));
  const cold = await searchTier('cold', budget);
  if (cold.length === 0) return hot;
  // Stable: equal scores keep hot hits first.
  return [...hot, ...cold].sort((a, b) => b.score - a.score).slice(0, maxResults);
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
