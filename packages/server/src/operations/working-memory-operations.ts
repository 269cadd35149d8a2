import { ReverieError, type ReverieErrorCode, ReverieValidationError } from '@reverie/core';
import type { Reverie } from 'reverie';
import { z } from 'zod';
import { defineOperation, type OperationContext } from './operation';
import { SessionNamespace } from './session-namespace';
import { asUntrustedData, UNTRUSTED_DATA_NOTE } from './untrusted-data';

/**
 * The agent's own working-memory tools (`reverie.tools.workingMemory`), bound to the caller's
 * session namespace `session/<name>`: the server applies the namespace rules the agent's tools
 * do, and keeps each session to its own (`SessionNamespace`). INVALID_INPUT when the caller has no session.
 */
function sessionTools(reverie: Reverie, session: string | undefined) {
  if (session === undefined) {
    throw new ReverieValidationError(
      'INVALID_INPUT',
      'The working-memory operations are bound to a session: over MCP that is your session; over HTTP send the header X-Reverie-Session: <id>.',
    );
  }
  const own = new SessionNamespace(session);
  return { own, tools: reverie.tools.workingMemory({ namespace: own.namespace }) };
}

type Tool = { execute?: (input: never, options: { toolCallId: string; messages: [] }) => unknown };

/** Calls one of those tools; the `{ error, message }` a tool answers instead of throwing is thrown again as a ReverieError. */
async function call<T>(tool: Tool, input: unknown): Promise<Exclude<T, { error: string }>> {
  const result = (await tool.execute!(input as never, { toolCallId: 'reverie-server', messages: [] })) as T;
  if (typeof result === 'object' && result !== null && 'error' in result) {
    const { error, message } = result as unknown as { error: ReverieErrorCode; message: string };
    throw new ReverieError(error, message);
  }
  return result as Exclude<T, { error: string }>;
}

const key = z
  .string()
  .min(1)
  .describe(
    'A plain key ("inbox") in your session namespace, or a full key ("subagent/t1/results") to read a shared patrol/ or subagent/ namespace',
  );
const namespace = z
  .string()
  .optional()
  .describe('A key prefix to browse instead of your session namespace, e.g. "patrol" or "subagent/t1" (other sessions are never shown)');

export const workingMemorySave = defineOperation({
  name: 'save_to_working_memory',
  title: 'Keep data in working memory',
  description:
    'Keeps data for a short while in your session namespace (session/<id>): big tool results, partial work. Expires after ttl_minutes (default 5).',
  access: 'write',
  needsSession: true,
  input: z.object({
    key: z.string().min(1).describe('A short name such as "inbox"; stored as "session/<id>/<key>"'),
    data: z.string().describe('The text to keep'),
    ttl_minutes: z.number().positive().optional().describe('Minutes until the entry expires (default 5)'),
    category: z.string().optional(),
    tags: z.array(z.string()).optional(),
  }),
  http: { method: 'POST', path: '/api/working-memory' },
  async run(input, { reverie, session }: OperationContext) {
    return call(sessionTools(reverie, session).tools.save_to_working_memory, input);
  },
});

export const workingMemoryGet = defineOperation({
  name: 'get_from_working_memory',
  title: 'Read working memory',
  description: `One working-memory entry with its value; NOT_FOUND when the key is wrong or the entry expired. ${UNTRUSTED_DATA_NOTE}`,
  access: 'read',
  needsSession: true,
  input: z.object({ key }),
  http: { method: 'GET', path: '/api/working-memory/entry' },
  async run(input, { reverie, session }) {
    const { own, tools } = sessionTools(reverie, session);
    own.checkRead(input.key);
    const result = await call<{ found: boolean; key: string; message?: string }>(tools.get_from_working_memory, input);
    if (!result.found)
      throw new ReverieError('NOT_FOUND', result.message ?? `Nothing is stored at "${result.key}".`, { details: { key: result.key } });
    return asUntrustedData(result);
  },
});

export const workingMemoryList = defineOperation({
  name: 'list_working_memory',
  title: 'List working memory',
  description:
    'The keys of your session namespace (or of a shared patrol/ or subagent/ prefix; other sessions are never listed) with their expiry, category and tags; values are read one at a time.',
  access: 'read',
  needsSession: true,
  input: z.object({ namespace }),
  http: { method: 'GET', path: '/api/working-memory' },
  async run(input, { reverie, session }) {
    const { own, tools } = sessionTools(reverie, session);
    own.checkBrowse(input.namespace);
    const listed = await call<{ prefix: string; entries: Array<{ key: string }> }>(tools.list_working_memory, input);
    return { ...listed, entries: own.visible(listed.entries) };
  },
});

export const workingMemorySearch = defineOperation({
  name: 'search_working_memory',
  title: 'Search working memory',
  description:
    'Working-memory entries by words, category or tags, in your session namespace unless a shared patrol/ or subagent/ prefix is given (other sessions are never searched); keys, not values.',
  access: 'read',
  needsSession: true,
  input: z.object({
    query: z.string().optional().describe('Words to look for; leave out for the newest entries'),
    category: z.string().optional(),
    tags: z.array(z.string()).optional(),
    namespace,
  }),
  http: { method: 'GET', path: '/api/working-memory/search' },
  async run(input, { reverie, session }) {
    const { own, tools } = sessionTools(reverie, session);
    own.checkBrowse(input.namespace);
    return own.visible(await call<Array<{ key: string }>>(tools.search_working_memory, input));
  },
});
