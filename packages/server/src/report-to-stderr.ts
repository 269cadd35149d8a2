/** The default `onError` of both servers: the failure with its stack, on stderr (stdout may carry the MCP protocol). */
export function reportToStderr(error: unknown): void {
  process.stderr.write(`reverie server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
}
