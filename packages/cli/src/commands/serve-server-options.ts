import { parseServerOptions, type ServerOptions } from '@reverie/server';
import { parseInteger } from '../args/parse-args';

/** The integer flags of `reverie serve`, each with the server option it sets and its least value. */
const INTEGER_FLAGS = [
  { flag: 'port', option: 'port', min: 0 },
  { flag: 'mcp-session-idle', option: 'mcpSessionIdleSeconds', min: 1 },
  { flag: 'max-mcp-sessions', option: 'maxMcpSessions', min: 1 },
  { flag: 'request-timeout', option: 'requestTimeoutSeconds', min: 1 },
  { flag: 'max-connections', option: 'maxConnections', min: 1 },
] as const;

/**
 * The server options of `reverie serve`'s flags (the token from `--token`, else `REVERIE_TOKEN`),
 * validated as `startReverieServer` validates them: a bad one is a usage error (exit 2) before the
 * data directory is touched.
 */
export function serveServerOptions(
  options: Record<string, string | boolean | undefined>,
  env: NodeJS.ProcessEnv,
  readOnly: boolean,
): ServerOptions {
  const token = typeof options.token === 'string' ? options.token : env.REVERIE_TOKEN || undefined;
  const origins =
    typeof options['allow-origin'] === 'string'
      ? options['allow-origin']
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean)
      : [];
  const numbers = new Map<string, number>();
  for (const { flag, option, min } of INTEGER_FLAGS) {
    const value = options[flag];
    if (typeof value === 'string') numbers.set(option, parseInteger(value, flag, min));
  }
  return parseServerOptions({
    readOnly,
    allowedOrigins: origins,
    ...(typeof options.host === 'string' ? { host: options.host } : {}),
    ...(token === undefined ? {} : { token }),
    ...Object.fromEntries(numbers),
  });
}
