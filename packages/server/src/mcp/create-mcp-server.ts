import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { version } from '../../package.json';
import { inputJsonSchema } from '../operations/input-json-schema';
import type { Operation } from '../operations/operation';
import type { OperationHost } from '../operations/operation-host';
import { UNTRUSTED_DATA_NOTE } from '../operations/untrusted-data';
import { toolAnswer, toolError } from './tool-result';

/** What the server tells a client about itself at initialize (SPEC B4: stored text is data). */
const INSTRUCTIONS = `Reverie: an agent's long-term memory, working memory, skills and dream cycle, one tool per operation. ${UNTRUSTED_DATA_NOTE}`;

/**
 * What the SDK is given as a tool's input schema: any object passes its own check, so the
 * operation's schema validates the input itself and a bad one is refused with INVALID_INPUT like
 * on HTTP; the tool list still shows the operation's JSON Schema (the `meta` it carries).
 */
function advertisedSchema(operation: Operation) {
  return z.looseObject({}).meta(inputJsonSchema(operation));
}

/**
 * An MCP server with one tool per operation. `session` names the caller's session for the
 * working-memory tools: the streamable-HTTP session id, or the one id of a stdio process.
 */
export function createMcpServer(host: OperationHost, report: (error: unknown) => void, fixedSession?: string): McpServer {
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
      async (input, extra) => {
        try {
          return toolAnswer(await host.run(operation, input, fixedSession ?? extra.sessionId));
        } catch (error) {
          return toolError(error, report);
        }
      },
    );
  }
  return server;
}
