import { ownValue } from '@reverie/core/internal';
import { version } from '../../package.json';
import { inputJsonSchema, type JsonSchema } from '../operations/input-json-schema';
import type { Operation } from '../operations/operation';

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: {
          type: 'string',
          description: 'A stable ReverieError code: INVALID_INPUT, NOT_FOUND, READ_ONLY, UNAUTHORIZED, DREAM_BLOCKED…',
        },
        message: { type: 'string', description: 'What went wrong and what to do about it' },
        details: { type: 'object' },
      },
    },
  },
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** The `{name}` parameters of a path template. */
const pathParameters = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);

function operationObject(operation: Operation): JsonSchema {
  const schema = inputJsonSchema(operation);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const inPath = pathParameters(operation.http.path);
  const parameters: JsonSchema[] = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: ownValue(properties, name) ?? { type: 'string' },
  }));
  if (operation.needsSession) {
    parameters.push({
      name: 'X-Reverie-Session',
      in: 'header',
      required: true,
      description:
        'Your session: working memory is session/<name>, kept to itself. Names starting with mcp- belong to MCP sessions and are refused.',
      schema: { type: 'string' },
    });
  }
  const rest = Object.entries(properties).filter(([name]) => !inPath.includes(name));
  let requestBody: JsonSchema | undefined;
  if (operation.http.method === 'POST') {
    const bodySchema = {
      ...schema,
      properties: Object.fromEntries(rest),
      required: [...required].filter((name) => !inPath.includes(name)),
    };
    requestBody = { required: (bodySchema.required as string[]).length > 0, content: { 'application/json': { schema: bodySchema } } };
  } else {
    for (const [name, property] of rest) {
      parameters.push({
        name,
        in: 'query',
        required: required.has(name),
        schema: property,
        ...(property.type === 'array' ? { style: 'form', explode: false } : {}),
      });
    }
  }
  return {
    operationId: operation.name,
    summary: operation.title,
    description: `${operation.description}${operation.access === 'write' ? ' Writes: refused with READ_ONLY by a read-only server.' : ''} MCP tool: ${operation.name}.`,
    tags: [operation.name.split('_')[0]],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody === undefined ? {} : { requestBody }),
    responses: {
      [String(operation.http.status ?? 200)]: { description: 'The answer', content: { 'application/json': { schema: {} } } },
      '4XX': errorResponse(
        'Refused: bad input (400), no or wrong token (401), read-only or origin (403), unknown id (404), conflict or blocked dream (409), body too large (413)',
      ),
      '5XX': errorResponse('The server or a store failed'),
    },
  };
}

/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the operations' zod schemas (their
 * JSON Schema, 2020-12, which OpenAPI 3.1 uses as is). Pure.
 */
export function openApiDocument(operations: readonly Operation[]): JsonSchema {
  const paths = new Map<string, Map<string, JsonSchema>>();
  for (const operation of operations) {
    const methods = paths.get(operation.http.path) ?? new Map<string, JsonSchema>();
    paths.set(operation.http.path, methods.set(operation.http.method.toLowerCase(), operationObject(operation)));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reverie',
      version,
      description:
        "An agent's long-term memory, working memory, skills and dream cycle. Every operation is also an MCP tool of the same name, at /mcp. A server bound to anything but loopback needs `Authorization: Bearer <token>`.",
    },
    security: [{}, { bearer: [] }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, schemas: { Error: ERROR_SCHEMA } },
    paths: Object.fromEntries([...paths].map(([path, methods]) => [path, Object.fromEntries(methods)])),
  };
}
