import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeError, type ErrorPolicy } from '../http/error-response';

/** A successful call: the operation's answer as JSON text, and as structured content when it is an object. */
export function toolAnswer(result: unknown): CallToolResult {
  const structured =
    result !== null && typeof result === 'object' && !Array.isArray(result) ? { structuredContent: result as Record<string, unknown> } : {};
  return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], ...structured };
}

/**
 * A failed call as a tool error (`isError`), carrying the same `{ error: { code, message } }` the
 * HTTP API answers, so an agent can read the code; no stack trace.
 */
export function toolError(error: unknown, errors: ErrorPolicy): CallToolResult {
  const { body } = describeError(error, errors);
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body as unknown as Record<string, unknown>,
  };
}
