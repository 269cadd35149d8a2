import { z } from 'zod';
import { parseRecord, ReverieValidationError } from '@reverie/core';

const storeOptionsSchema = z
  .object({
    dataPath: z.string().min(1, 'dataPath is required: the directory where the agent keeps its data'),
    embedder: z
      .custom((value) => typeof value === 'object' && value !== null && typeof (value as { embed?: unknown }).embed === 'function' && typeof (value as { modelId?: unknown }).modelId === 'string', {
        message: 'must be an IEmbedder: an object with a modelId string and an embed(texts) method (aiSdkEmbedder(model), loadWordVectorEmbedder() of reverie)',
      })
      .optional(),
    minSimilarity: z.number().min(0).max(1).optional(),
    queryEmbeddingTimeoutMs: z.number().int().positive().optional(),
  })
  .loose();

/**
 * Checks the options every file store shares, and a store's own with `own`; a bad value is
 * INVALID_OPTIONS naming the field.
 */
export function validateStoreOptions<T extends { dataPath: string }>(options: T, store: string, own?: z.ZodType): T {
  if (options === null || typeof options !== 'object') {
    throw new ReverieValidationError('INVALID_OPTIONS', `${store} needs an options object with a dataPath.`);
  }
  try {
    parseRecord(storeOptionsSchema, options, `${store} options`);
    if (own) parseRecord(own, options, `${store} options`);
  } catch (error) {
    throw new ReverieValidationError('INVALID_OPTIONS', (error as Error).message, { cause: error });
  }
  return options;
}
