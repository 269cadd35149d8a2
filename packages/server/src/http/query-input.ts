import { ownValue } from '@reverie/core/internal';
import type { JsonSchema } from '../operations/input-json-schema';

/**
 * An operation's input from a query string: each parameter converted to the type the input's
 * JSON Schema gives it (numbers, booleans, comma-separated arrays); anything that does not
 * convert is passed on as text for the schema to refuse. Pure.
 */
export function queryToInput(query: URLSearchParams, schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const input = new Map<string, unknown>();
  for (const [name, value] of query) {
    const type = ownValue(properties, name)?.type;
    if (type === 'integer' || type === 'number')
      input.set(name, value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value);
    else if (type === 'boolean') input.set(name, value === 'true' ? true : value === 'false' ? false : value);
    else if (type === 'array')
      input.set(
        name,
        value
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== ''),
      );
    else input.set(name, value);
  }
  return Object.fromEntries(input);
}
