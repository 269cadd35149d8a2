import { ReverieValidationError } from '@reverie/core';
import { inputJsonSchema } from '../operations/input-json-schema';
import type { Operation } from '../operations/operation';
import type { OperationHost } from '../operations/operation-host';
import { httpSessionName } from '../operations/session-namespace';
import type { HttpRoute } from './http-route';
import { queryToInput } from './query-input';
import { readJsonBody } from './read-body';
import { sendJson } from './send';

/** The header that names the caller's session for the working-memory operations. */
export const SESSION_HEADER = 'x-reverie-session';

/**
 * The HTTP route of an operation: GET and DELETE take their input from the query string, POST
 * from a JSON object body; `{name}` path segments fill the field of that name.
 */
export function operationRoute(operation: Operation, host: OperationHost, maxBodyBytes: number): HttpRoute {
  const { method, path, status = 200 } = operation.http;
  return {
    method,
    path,
    async handle({ request, response, params, url }) {
      let input: Record<string, unknown>;
      if (method === 'POST') {
        const body = await readJsonBody(request, maxBodyBytes);
        if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
          throw new ReverieValidationError('INVALID_INPUT', `${operation.name} takes a JSON object as its body.`);
        }
        input = { ...(body as Record<string, unknown> | undefined), ...params };
      } else {
        input = { ...queryToInput(url.searchParams, inputJsonSchema(operation)), ...params };
      }
      const session = operation.needsSession ? httpSessionName(request.headers[SESSION_HEADER]) : undefined;
      const result = await host.run(operation, input, session);
      sendJson(response, status, result);
    },
  };
}
