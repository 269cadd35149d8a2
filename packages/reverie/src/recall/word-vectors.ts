import { tokenize } from '@reverie/core/internal';

/**
 * Word vectors as the word-vector embedder holds them: the most frequent words of a file of
 * pre-trained vectors (GloVe's, for one), each vector scaled to length 1, one after another.
 */
export interface WordVectors {
  /** Numbers per vector. */
  dimensions: number;
  /** Each word's place in the file's frequency order (0 = the most frequent), lower case. */
  rankOf: ReadonlyMap<string, number>;
  /** The vector of the word of rank r at `[r × dimensions, (r + 1) × dimensions)`. */
  vectors: Float32Array;
}

/**
 * A text's vector: the sum of the vectors (each of length 1) of its words, the words as BM25 reads
 * them (`tokenize` of `@reverie/core`: lower case, no stop words), each time a word occurs. Words
 * the vectors do not know count for nothing; a text with none gives all zeros, which is similar
 * to nothing. Weighing rarer words more (smooth inverse frequency, with Zipf's law for the
 * frequency) was measured on the shared recall set and did no better once stop words are
 * dropped (`pnpm bench:recall`, SPEC M4). Pure.
 */
export function embedText(text: string, words: WordVectors): number[] {
  const { dimensions, rankOf, vectors } = words;
  const sum = new Array<number>(dimensions).fill(0);
  for (const word of tokenize(text)) {
    const rank = rankOf.get(word);
    if (rank === undefined) continue;
    const start = rank * dimensions;
    for (let i = 0; i < dimensions; i++) sum[i]! += vectors[start + i]!;
  }
  return sum;
}

/**
 * Collects word vectors in frequency order: `add` each word with its vector, most frequent first,
 * until `full`. A word met again in another case ("Apple" after "apple") keeps its first, more
 * frequent vector; a vector of all zeros is left out, as it would compare as nothing.
 */
export class WordVectorCollector {
  private readonly rankOf = new Map<string, number>();
  private vectors: Float32Array;
  private count = 0;

  constructor(
    readonly dimensions: number,
    private readonly maxWords: number,
  ) {
    this.vectors = new Float32Array(Math.min(maxWords, 65_536) * dimensions);
  }

  get full(): boolean {
    return this.count >= this.maxWords;
  }

  /** Whether a vector for `word` would still be kept (the caller can skip reading one that is not). */
  wants(word: string): boolean {
    return !this.full && !this.rankOf.has(word.toLowerCase());
  }

  /** Adds `word` at the next rank, its vector (`dimensions` numbers) scaled to length 1. */
  add(word: string, vector: ArrayLike<number>): void {
    const lower = word.toLowerCase();
    if (!this.wants(lower)) return;
    let norm = 0;
    for (let i = 0; i < this.dimensions; i++) norm += vector[i]! * vector[i]!;
    if (!(norm > 0) || !Number.isFinite(norm)) return;
    norm = Math.sqrt(norm);
    if ((this.count + 1) * this.dimensions > this.vectors.length) this.grow();
    const start = this.count * this.dimensions;
    for (let i = 0; i < this.dimensions; i++) this.vectors[start + i] = vector[i]! / norm;
    this.rankOf.set(lower, this.count);
    this.count += 1;
  }

  result(): WordVectors {
    return { dimensions: this.dimensions, rankOf: this.rankOf, vectors: this.vectors.slice(0, this.count * this.dimensions) };
  }

  private grow(): void {
    const larger = new Float32Array(Math.min(this.vectors.length * 2, this.maxWords * this.dimensions));
    larger.set(this.vectors);
    this.vectors = larger;
  }
}
