import { z } from 'zod';
import { invalidOptions, parseOptions } from '@reverie/core';
import { hybridRecallOptionsShape } from '@reverie/core/internal';
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
    throw invalidOptions(`${store} needs an options object with a dataPath.`, [{ path: '', message: 'an options object is required' }]);
  }
  parseOptions(storeOptionsSchema, options, `${store} options`);
  if (own) parseOptions(own, options, `${store} options`);
  return options;
}
