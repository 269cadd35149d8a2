/**
 * How the vector index is built and searched (SPEC M4, B12): usearch's HNSW graph, each of its
 * settings chosen by `pnpm bench:vectors` (docs/benchmarks.md, "bench:vectors").
 */
export interface AnnSettings {
  /** Links per node (HNSW's M). */
  connectivity: number;
  /** Candidates considered per insertion (efConstruction). */
  expansionAdd: number;
  /** Candidates considered per search (ef), at least the number of hits asked for. */
  expansionSearch: number;
  /** How the graph stores its own copy of the vectors; hits are re-scored from the exact ones. */
  quantization: 'f32' | 'f16' | 'i8';
}

export const ANN_SETTINGS: Readonly<AnnSettings> = Object.freeze({
  connectivity: 16,
  expansionAdd: 128,
  expansionSearch: 128,
  quantization: 'i8',
});

/**
 * Below this many vectors a search compares the query with every vector: at that size it takes
 * about a millisecond at 384 dimensions and the index would cost a build for little. Measured by
 * `pnpm bench:vectors`.
 */
export const DEFAULT_EXACT_SEARCH_BELOW = 5000;

/**
 * At most this many vectors wait outside the graph (new or changed since it was built) and are
 * compared with the query one by one; past it the graph is rebuilt in the background.
 */
export const MAX_UNINDEXED = 2048;
