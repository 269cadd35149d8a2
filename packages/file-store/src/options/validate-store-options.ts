import { z } from 'zod';
import { hybridRecallOptionsShape, parseRecord, ReverieValidationError } from '@reverie/core';
import { vectorSearchOptionsShape } from '../embeddings/vector-search-options';

const storeOptionsSchema = z
  .object({
    dataPath: z.string().min(1, 'dataPath is required: the directory where the agent keeps its data'),
    ...hybridRecallOptionsShape,
    ...vectorSearchOptionsShape,
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
