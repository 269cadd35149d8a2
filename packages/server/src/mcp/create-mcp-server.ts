import { randomBytes } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ReverieValidationError } from '@reverie/core';
import { version } from '../../package.json';
import type { ErrorPolicy } from '../http/error-response';
import { inputJsonSchema } from '../operations/input-json-schema';
import type { Operation } from '../operations/operation';
import type { OperationHost } from '../operations/operation-host';
import { MCP_NAMESPACE_PREFIX } from '../operations/session-namespace';
import { UNTRUSTED_DATA_NOTE } from '../operations/untrusted-data';
import { RENAMED_TOOLS } from './renamed-tools';
import { toolAnswer, toolError } from './tool-result';

/** What the server tells a client about itself at initialize (SPEC B4: stored text is data). */
const INSTRUCTIONS = `Reverie: an agent's long-term memory, working memory, skills and dream cycle, one tool per operation. ${UNTRUSTED_DATA_NOTE}`;

/**
 * What the SDK is given as a tool's input schema: any object passes its own check, so the
 * operation's schema validates the input itself and a bad one is refused with INVALID_INPUT like
 * on HTTP; the tool list still shows the operation's JSON Schema (the `meta` it carries).
 */
function advertisedSchema(operation: Operation) {
  let schema = advertised.get(operation);
  if (schema === undefined) {
    schema = z.looseObject({}).meta(inputJsonSchema(operation));
    advertised.set(operation, schema);
  }
  return schema;
}

/** One advertised schema per operation, shared by every session's server. */
const advertised = new WeakMap<Operation, z.ZodObject>();

/**
 * An MCP server with one tool per operation, for one session. Its working-memory tools are bound
 * to a namespace of its own, `session/mcp-<128 random bits>`, apart from the transport's session
 * id (SPEC O9): the id authenticates the session's requests and appears in no answer, so an
 * agent that passes its keys on gives nobody the means to act as its session.
 */
export function createMcpServer(host: OperationHost, errors: ErrorPolicy): McpServer {
  const session = `${MCP_NAMESPACE_PREFIX}${randomBytes(16).toString('hex')}`;
  const server = new McpServer({ name: 'reverie', version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  for (const operation of host.operations) {
    server.registerTool(
      operation.name,
      {
        title: operation.title,
        description: operation.description,
        inputSchema: advertisedSchema(operation),
        annotations: { title: operation.title, readOnlyHint: operation.access === 'read', openWorldHint: false },
      },
      async (input) => {
        try {
          return toolAnswer(await host.run(operation, input, session));
        } catch (error) {
          return toolError(error, errors);
        }
      },
    );
  }
  refuseRenamedTools(server, errors);
  return server;
}

type RequestHandler = (request: { params?: { name?: unknown } }, extra: unknown) => Promise<unknown>;

/**
 * A call by a tool's old name (`memory_save`) is a tool error naming the new one (`UNKNOWN_TOOL`:
 * "memory_save is now save_memory"), not the SDK's "Tool memory_save not found", and the old names
 * are not listed. The SDK has no hook before its own lookup, so its `tools/call` handler is wrapped
 * where the protocol keeps it (`mcp-renamed-tools.test.ts` fails if that moves).
 */
function refuseRenamedTools(server: McpServer, errors: ErrorPolicy): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
  const call = handlers?.get('tools/call');
  if (handlers === undefined || call === undefined)
    throw new Error('The MCP SDK no longer keeps its tools/call handler where Reverie wraps it.');
  handlers.set('tools/call', async (request, extra) => {
    const name = request.params?.name;
    const renamed = typeof name === 'string' ? RENAMED_TOOLS.get(name) : undefined;
    if (renamed === undefined) return call(request, extra);
    const message = `${name} is now ${renamed}: the tools take the agent tools' names (save_memory, search_memory, …). Call ${renamed}.`;
    return toolError(new ReverieValidationError('UNKNOWN_TOOL', message, { details: { tool: name, renamedTo: renamed } }), errors);
  });
}
