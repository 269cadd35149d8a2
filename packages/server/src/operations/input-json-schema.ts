import { z } from 'zod';
import type { Operation } from './operation';
import { strictInput } from './strict-input';

/** A JSON Schema object, as zod writes it. */
export type JsonSchema = Record<string, unknown>;

const cache = new WeakMap<Operation, JsonSchema>();

/**
 * The JSON Schema (draft 2020-12) of what an operation accepts, from its zod schema
 * (`z.toJSONSchema`, input side: a field with a default is optional; no field it does not
 * declare, `additionalProperties: false`). The MCP tool list, the
 * OpenAPI document and the HTTP query parsing all read this one.
 */
export function inputJsonSchema(operation: Operation): JsonSchema {
  let schema = cache.get(operation);
  if (schema === undefined) {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(strictInput(operation), { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    schema = rest;
    cache.set(operation, schema);
  }
  return schema;
}
