import type { IEmbedder } from '../interfaces/embedder';
import type { ILogger } from '../interfaces/logger';

/** Longer texts are cut to this many characters before they are embedded (documents and queries alike). */
export const MAX_EMBEDDING_INPUT_CHARS = 30_000;

/**
 * A search's query vector (SPEC M4): `text` (cut to `MAX_EMBEDDING_INPUT_CHARS`) embedded by
 * `embedder`, or undefined, with a warning, when the model fails, returns nothing or takes longer
 * than `timeoutMs` (the call is then aborted): the caller ranks by BM25 alone. Every store with
 * hybrid recall asks for its query vector this way.
 */
export async function embedQueryWithin(
  embedder: IEmbedder,
  text: string,
  timeoutMs: number,
  logger: ILogger,
): Promise<number[] | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const [vector] = await embedder.embed([text.slice(0, MAX_EMBEDDING_INPUT_CHARS)], { signal: controller.signal });
    if (!vector) throw new Error('the embedder returned no vector');
    return vector;
  } catch (error) {
    logger.warn('Could not embed the query; ranking by BM25 alone.', { error: String(error) });
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
