import { ReverieValidationError } from '../errors/reverie-error';
import type { Bm25Hit } from './bm25-index';

export const DEFAULT_MIN_SIMILARITY = 0.5;
/** How long a store's search waits for its query's embedding before it ranks by BM25 alone. */
export const DEFAULT_QUERY_EMBEDDING_TIMEOUT_MS = 2000;

export interface VectorHit {
  id: string;
  /** Cosine similarity in [-1, 1]. */
  similarity: number;
}

export interface HybridHit {
  id: string;
  /** Average of the normalised BM25 and cosine scores, in [0, 1]. */
  score: number;
  bm25: number;
  cosine: number;
}

export interface HybridRankOptions {
  /** Vector hits under this similarity are dropped (SPEC M4, default 0.5). */
  minSimilarity?: number;
  limit?: number;
}

/**
 * SPEC M4: merges keyword and vector rankings, each normalised to [0, 1]; a document missing from
 * one list scores 0 there; the two are averaged. BM25 scores are divided by the best one, as a
 * BM25 score of 0 already means "no word in common". Cosine similarities are measured from the
 * weakest vector candidate given to the best one (`(similarity − weakest) / (best − weakest)`):
 * an embedding model has a floor of its own for unrelated texts (around 0.1 for some, 0.6 for
 * others), and divided by the best alone, every candidate near that floor would still score as
 * much as a good keyword match. So `vector` should be the store's vector candidates, best first
 * and several times `limit` of them (the stores give 4 × maxResults). A lone candidate, or all at
 * the same similarity, scores 1. Chosen on the shared recall set (`pnpm bench:recall`, SPEC M4):
 * recall@10 of hybrid search with a word-vector model 0.902 → 0.941, and as good or better with
 * the test embedder. Ties keep BM25 order first, then id, so the result is deterministic. Pure.
 */
export function hybridRank(bm25: readonly Bm25Hit[], vector: readonly VectorHit[], options: HybridRankOptions = {}): HybridHit[] {
  const minSimilarity = options.minSimilarity ?? DEFAULT_MIN_SIMILARITY;
  const kept = vector.filter((hit) => hit.similarity >= minSimilarity && hit.similarity > 0);
  const bestBm25 = Math.max(0, ...bm25.map((hit) => hit.score));
  const bestCosine = Math.max(0, ...kept.map((hit) => hit.similarity));
  const weakestCosine = Math.min(bestCosine, ...vector.map((hit) => hit.similarity));

  const merged = new Map<string, { bm25: number; cosine: number; order: number }>();
  bm25.forEach((hit, order) => {
    merged.set(hit.id, { bm25: bestBm25 > 0 ? hit.score / bestBm25 : 0, cosine: 0, order });
  });
  for (const hit of kept) {
    const cosine = bestCosine > weakestCosine ? (hit.similarity - weakestCosine) / (bestCosine - weakestCosine) : 1;
    const existing = merged.get(hit.id);
    if (existing) existing.cosine = cosine;
    else merged.set(hit.id, { bm25: 0, cosine, order: Number.MAX_SAFE_INTEGER });
  }

  const ranked = [...merged.entries()]
    .map(([id, value]) => ({ id, bm25: value.bm25, cosine: value.cosine, score: (value.bm25 + value.cosine) / 2, order: value.order }))
    .sort((a, b) => b.score - a.score || a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const limited = options.limit === undefined ? ranked : ranked.slice(0, options.limit);
  return limited.map(({ id, score, bm25: b, cosine }) => ({ id, score, bm25: b, cosine }));
}

/** Cosine similarity of two vectors of equal length; 0 when either is all zeros. */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) {
    throw new ReverieValidationError(
      'INVALID_INPUT',
      `Cannot compare vectors of different lengths (${a.length} and ${b.length}): were they made by different embedding models?`,
    );
  }
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return 0;
  return dot / (Math.sqrt(normA) * Math.sqrt(normB));
}
