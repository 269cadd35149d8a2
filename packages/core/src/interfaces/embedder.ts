/**
 * Turns text into vectors for hybrid recall (SPEC M4). `@reverie/core` knows nothing about
 * providers; the `reverie` package adapts an AI SDK embedding model to this interface.
 */
export interface IEmbedder {
  /** Identifies the model; cached vectors from another model are recomputed. */
  readonly modelId: string;
  /** One vector per text, in order. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}
