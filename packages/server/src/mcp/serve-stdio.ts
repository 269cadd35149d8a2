import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Reverie } from 'reverie';
import { ErrorRedactor } from '../http/error-redactor';
import { OPERATIONS } from '../operations/operation-catalogue';
import { OperationHost } from '../operations/operation-host';
import { reportToStderr } from '../report-to-stderr';
import { createMcpServer } from './create-mcp-server';

export interface StdioServerOptions {
  reverie: Reverie;
  /** Refuse every operation that writes (READ_ONLY). */
  readOnly?: boolean;
  /** Told about failures the answers do not show; default: stderr (stdout carries the protocol). */
  onError?: (error: unknown) => void;
  /** The streams to speak on (default the process's stdin and stdout). */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/** An MCP server speaking on stdio; `closed` resolves when the client goes away. */
export interface StdioServer {
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the operations as MCP tools over stdio, the way desktop and editor clients start a
 * server. The process is one session: its working memory is `session/mcp-<random>`.
 */
export async function serveStdio({
  reverie,
  readOnly = false,
  onError = reportToStderr,
  stdin,
  stdout,
}: StdioServerOptions): Promise<StdioServer> {
  const host = new OperationHost(reverie, OPERATIONS, readOnly, onError);
  const server = createMcpServer(host, { report: onError, redactor: new ErrorRedactor(reverie.dataPath) });
  const input = stdin ?? process.stdin;
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport(input as never, (stdout ?? process.stdout) as never));
  // The transport does not notice a client that closes its end of the pipe: that ends the session.
  input.once('end', () => void server.close());
  return {
    closed,
    async close() {
      await server.close();
      await host.close();
    },
  };
}
