import type { z } from 'zod';
import type { Operation } from './operation';

const cache = new WeakMap<Operation, z.ZodObject>();

/**
 * The schema an operation's input is checked and described with: its own, refusing fields it
 * does not declare (SPEC O10). A misspelt field (`tag` for `tags`) is refused instead of being
 * dropped, so nothing is saved other than what the caller meant.
 */
export function strictInput(operation: Operation): z.ZodObject {
  let schema = cache.get(operation);
  if (schema === undefined) {
    schema = operation.input.strict();
    cache.set(operation, schema);
  }
  return schema;
}
