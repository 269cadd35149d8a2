import { isReverieError } from '@reverie/core';

const describe = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

/**
 * The default `onError` of both servers: the failure in full — its code, stack, details and cause
 * — on stderr (stdout may carry the MCP protocol). This is where what the answers leave out goes.
 */
export function reportToStderr(error: unknown): void {
  const lines = [`reverie server: ${isReverieError(error) ? `[${error.code}] ` : ''}${describe(error)}`];
  if (isReverieError(error) && Object.keys(error.details).length > 0) lines.push(`  details: ${JSON.stringify(error.details)}`);
  if (error instanceof Error && error.cause !== undefined) lines.push(`  cause: ${describe(error.cause)}`);
  process.stderr.write(`${lines.join('\n')}\n`);
}
