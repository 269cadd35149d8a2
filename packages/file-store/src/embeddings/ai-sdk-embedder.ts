import type { EmbeddingModel } from 'ai';
import { type IEmbedder } from '@reverie/core';
import { loadOnce, MAX_EMBEDDING_INPUT_CHARS } from '@reverie/core/internal';

/** The AI SDK loads with the first embedding, not with the package (docs/architecture.md). */
const loadAiSdk = loadOnce(() => import('ai'));

export interface AiSdkEmbedderOptions {
  /** Longer texts are cut to this many characters before they are sent (default 30 000). */
  maxInputChars?: number;
  /** Retries per call, as the AI SDK counts them (default 2). */
  maxRetries?: number;
}

/**
 * Adapts any AI SDK embedding model (`openai.embedding('text-embedding-3-small')`, an Ollama
 * model through an OpenAI-compatible provider, …) to Reverie's `IEmbedder`, so the file store
 * can rank by meaning as well as by keywords.
 */
export function aiSdkEmbedder(model: EmbeddingModel, options: AiSdkEmbedderOptions = {}): IEmbedder {
  const maxInputChars = options.maxInputChars ?? MAX_EMBEDDING_INPUT_CHARS;
  const modelId = typeof model === 'string' ? model : `${model.provider}:${model.modelId}`;
  return {
    modelId,
    async embed(texts, embedOptions = {}) {
      if (texts.length === 0) return [];
      const { embedMany } = await loadAiSdk();
      const { embeddings } = await embedMany({
        model,
        values: texts.map((text) => text.slice(0, maxInputChars)),
        maxRetries: options.maxRetries ?? 2,
        ...(embedOptions.signal ? { abortSignal: embedOptions.signal } : {}),
      });
      return embeddings;
    },
  };
}
