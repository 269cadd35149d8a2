import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { inspector, serveStdio, startReverieServer } from '@reverie/server';
import { CliError, UsageError } from '../errors/cli-error';
import { EXIT } from '../errors/exit-codes';
import { loadModel } from '../model/load-model';
import { readDreamingOptions } from '../runtime/open-reverie';
import { type Command, DREAMING_OPTIONS_OPTION } from './command';
import { serveServerOptions } from './serve-server-options';

/**
 * Waits for SIGINT or SIGTERM. The listeners stay until `dispose()` (the store lock's exit hook
 * re-raises a signal it sees no other listener for); a second signal quits at once.
 */
function shutdownSignal(): { received: Promise<NodeJS.Signals>; dispose(): void } {
  let signals = 0;
  let resolveSignal!: (signal: NodeJS.Signals) => void;
  const received = new Promise<NodeJS.Signals>((resolve) => (resolveSignal = resolve));
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals > 1) process.exit(130);
    resolveSignal(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    received,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/**
 * A server over a data directory that does not exist would serve an empty memory, and a typo in
 * `--data` would look like one: `serve` refuses it (exit 3) unless `--create` asks for a new one,
 * which a read-only server could not fill (usage error). `dataPath` is undefined with `--postgres`,
 * where `--create` has nothing to create (usage error).
 */
async function refuseMissingDataDir(dataPath: string | undefined, create: boolean, readOnly: boolean): Promise<void> {
  if (create && dataPath === undefined)
    throw new UsageError('--create makes a data directory for the file stores; with --postgres there is none to create');
  if (create && readOnly) throw new UsageError('--create makes a new, empty data directory to write in; it cannot go with --read-only');
  if (dataPath === undefined || create) return;
  const exists = await stat(dataPath).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== 'ENOENT',
  );
  if (!exists) {
    throw new CliError(
      `no data directory at ${dataPath}: pass --data DIR (or set REVERIE_DATA) to point at an agent's data directory, or add --create to serve a new, empty one there`,
      EXIT.DATA_DIR,
    );
  }
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the memory to agents (MCP), programs (HTTP JSON API) and people (the inspector page)',
  description: [
    'Serves the data directory until stopped (Ctrl-C or SIGTERM end it cleanly): an HTTP JSON API',
    '(routes in /openapi.json), the memory inspector page at /inspector/ and MCP over streamable',
    'HTTP at /mcp, or MCP over stdio with --stdio',
    '(for desktop and editor clients that start the server themselves). Binds 127.0.0.1; any other',
    '--host needs a token (--token or REVERIE_TOKEN, at least 16 characters), which every request',
    'then sends as "Authorization: Bearer <token>". --read-only refuses every operation that',
    'writes. The data directory must exist, unless --create. Dream runs use REVERIE_MODEL and the',
    'gates of --options. See docs/server.md.',
  ].join('\n'),
  args: [],
  options: [
    { name: 'port', type: 'string', value: 'N', description: 'TCP port (default 4319; 0 picks a free one)' },
    { name: 'host', type: 'string', value: 'ADDR', description: 'Address to bind (default 127.0.0.1; others need a token)' },
    { name: 'token', type: 'string', value: 'SECRET', description: 'Bearer token every request must carry (default $REVERIE_TOKEN)' },
    {
      name: 'allow-origin',
      type: 'string',
      value: 'URL,...',
      description: 'Origins a browser page may call the API from (CORS; default none)',
    },
    { name: 'read-only', type: 'boolean', description: 'Refuse every operation that writes (READ_ONLY)' },
    { name: 'create', type: 'boolean', description: 'Create the data directory when it does not exist (default: refuse, exit 3)' },
    { name: 'stdio', type: 'boolean', description: 'Speak MCP on stdin/stdout instead of serving HTTP' },
    {
      name: 'mcp-session-idle',
      type: 'string',
      value: 'SECONDS',
      description: 'End an MCP session over HTTP idle this long (default 1800)',
    },
    {
      name: 'max-mcp-sessions',
      type: 'string',
      value: 'N',
      description: 'Most MCP sessions over HTTP at once; one more is refused, 503 (default 100)',
    },
    {
      name: 'request-timeout',
      type: 'string',
      value: 'SECONDS',
      description: 'Longest a client may take to send a request, headers and body (default 30)',
    },
    { name: 'max-connections', type: 'string', value: 'N', description: 'Most connections open at once (default 256)' },
    DREAMING_OPTIONS_OPTION,
  ],
  examples: [
    'reverie serve --data ~/agents/ana/.reverie',
    'REVERIE_TOKEN=$(openssl rand -hex 24) reverie serve --host 0.0.0.0 --port 8080',
    'reverie serve --stdio --read-only --data ~/agents/ana/.reverie',
    'reverie serve --create --data ~/agents/new-agent/.reverie',
  ],
  async run(context) {
    const { options } = context;
    const readOnly = options['read-only'] === true;
    // Checked before anything touches the data directory: a start refused for its options writes nothing.
    const serverOptions = options.stdio === true ? undefined : serveServerOptions(options, context.io.env, readOnly);
    const model = await loadModel(context.io.env);
    const dreaming = await readDreamingOptions(typeof options.options === 'string' ? resolve(context.io.cwd, options.options) : undefined);
    await refuseMissingDataDir(context.backend === 'files' ? context.dataPath : undefined, options.create === true, readOnly);
    const reverie = await context.open(readOnly ? 'read' : 'write', { model, dreaming, triggers: true });
    const recover = async () => {
      if (readOnly) return;
      for (const id of await reverie.dreams.recover()) context.note(`Recovered dream run ${id}, which a crash had interrupted.`);
    };
    const stopped = shutdownSignal();
    try {
      if (serverOptions === undefined) {
        await recover();
        const server = await serveStdio({ reverie, readOnly });
        await Promise.race([server.closed, stopped.received]);
        await server.close();
        return;
      }
      // Recovery runs once the port is bound, before any request is answered: a port in use writes nothing either.
      const server = await startReverieServer({ ...serverOptions, reverie, extensions: [inspector()], beforeServing: recover });
      context.note(
        `Serving ${context.where}${readOnly ? ' (read-only)' : ''} at ${server.url}: the inspector at ${server.url}/inspector/, MCP at ${server.url}/mcp, the API's routes at ${server.url}/openapi.json. Ctrl-C stops.`,
      );
      const signal = await stopped.received;
      context.note(`Stopping (${signal})…`);
      await server.close();
    } finally {
      stopped.dispose();
    }
  },
};
