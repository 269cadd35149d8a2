import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Where Debian's `postgresql` package installs each major version (`<root>/<version>/bin`). */
const POSTGRES_ROOT = '/usr/lib/postgresql';

/** The bin directory of the newest PostgreSQL 15+ under /usr/lib/postgresql, or undefined. */
function serverBinaries(): string | undefined {
  if (!existsSync(POSTGRES_ROOT)) return undefined;
  const versions = readdirSync(POSTGRES_ROOT)
    .map(Number)
    .filter((version) => version >= 15 && existsSync(join(POSTGRES_ROOT, String(version), 'bin', 'initdb')))
    .sort((a, b) => b - a);
  return versions[0] === undefined ? undefined : join(POSTGRES_ROOT, String(versions[0]), 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Connects to `url` and runs `SELECT 1`; throws what the server or the network answered. */
async function canConnect(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query('SELECT 1');
  } finally {
    await client.end();
  }
}

/** The first non-empty line of an error's message. */
const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n').find((line) => line.trim() !== '') ?? 'unknown error';

export interface ThrowawayClusterOptions {
  /**
   * Keep PostgreSQL's durability (fsync, synchronous commit, full-page writes) as a production
   * server has it; off by default, which is fine for tests and nothing else.
   */
  durable?: boolean;
  /** More server settings (`name → value`, as `postgres -c name=value` takes them). */
  settings?: Record<string, string>;
}

export interface ThrowawayCluster {
  /** A superuser connection string (`postgres` database, trust authentication on loopback). */
  url: string;
  /** Stops the server at once and deletes its directory. */
  stop(): void;
}

/**
 * A throwaway cluster of the PostgreSQL whose programs are in `bin`, in a temporary directory, on
 * a free loopback port and a socket in the same directory. PostgreSQL refuses to run as root, so
 * as root its programs run as the `postgres` system user, which owns the directory. Used by the
 * tests' global setup and by `pnpm bench:postgres`.
 */
export async function startThrowawayCluster(bin: string, options: ThrowawayClusterOptions = {}): Promise<ThrowawayCluster> {
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'reverie-pg-'));
  const run = (program: string, args: string[]) => {
    const command = asRoot
      ? (['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] as const)
      : ([join(bin, program), args] as const);
    execFileSync(command[0], command[1], { stdio: 'pipe', timeout: 60_000 });
  };
  try {
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
      chownSync(dir, uid, gid);
    }
    const data = join(dir, 'data');
    run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync', '--no-instructions']);
    const port = await freePort();
    const durability = options.durable ? {} : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };
    const server = { listen_addresses: '127.0.0.1', max_connections: '200', ...durability, ...options.settings };
    const settings = ['-p', String(port), '-k', dir, ...Object.entries(server).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
    run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', settings.join(' '), 'start']);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      stop: () => {
        try {
          run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

export interface RealServer {
  /** A superuser connection string, or null when there is no server. */
  url: string | null;
  /** Why there is none, on one line, or null. */
  reason: string | null;
  /** Stops the throwaway cluster (nothing for a server the environment named). */
  stop(): void;
}

/**
 * A real PostgreSQL server: the one the environment variable `urlVariable` names (a superuser, or
 * a role that may create databases), else a throwaway cluster of the newest PostgreSQL 15+ under
 * /usr/lib/postgresql; or, when neither works, why not.
 */
export async function findRealServer(urlVariable: string, options: ThrowawayClusterOptions = {}): Promise<RealServer> {
  const none = (reason: string): RealServer => ({ url: null, reason, stop: () => undefined });
  const given = process.env[urlVariable];
  if (given) {
    try {
      await canConnect(given);
      return { url: given, reason: null, stop: () => undefined };
    } catch (error) {
      return none(`${urlVariable} is set but the server refused: ${firstLine(error)}`);
    }
  }
  const bin = serverBinaries();
  if (!bin) return none(`no PostgreSQL 15+ under ${POSTGRES_ROOT}/*/bin: install Debian's postgresql package or set ${urlVariable}`);
  try {
    const cluster = await startThrowawayCluster(bin, options);
    return { url: cluster.url, reason: null, stop: cluster.stop };
  } catch (error) {
    return none(
      `could not start a throwaway PostgreSQL cluster from ${bin}: ${firstLine((error as { stderr?: Buffer }).stderr?.toString() || error)}`,
    );
  }
}
