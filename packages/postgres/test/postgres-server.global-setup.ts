import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser connection string of the real PostgreSQL server, or null when there is none. */
    postgresAdminUrl: string | null;
    /** Why there is no real server (the real-server suites skip), or null. */
    postgresSkipReason: string | null;
  }
}

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

async function canConnect(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query('SELECT 1');
  } finally {
    await client.end();
  }
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n').find((line) => line.trim() !== '') ?? 'unknown error';

/**
 * A throwaway cluster in a temporary directory, on a free loopback port and a socket in the same
 * directory, with durability off (tests only). PostgreSQL refuses to run as root, so as root
 * its programs run as the `postgres` system user, which owns the directory.
 */
async function startCluster(bin: string): Promise<{ url: string; stop(): void }> {
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'reverie-pg-'));
  const run = (program: string, args: string[]) => {
    const command = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] as const : [join(bin, program), args] as const;
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
    const settings = ['-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'];
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

/**
 * Gives the postgres project's tests a real PostgreSQL server: `REVERIE_TEST_POSTGRES_URL` when
 * set (a superuser, or a role that may create databases), else a throwaway cluster of the
 * PostgreSQL 15+ installed under /usr/lib/postgresql (Debian's `postgresql` package, which
 * `.ci/run` installs), stopped in teardown. When neither works the real-server suites skip and
 * this says why, on one line; the PGlite suites run regardless.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const given = process.env.REVERIE_TEST_POSTGRES_URL;
  let url: string | null = null;
  let reason: string | null = null;
  let stop = () => undefined as void;
  if (given) {
    try {
      await canConnect(given);
      url = given;
    } catch (error) {
      reason = `REVERIE_TEST_POSTGRES_URL is set but the server refused: ${firstLine(error)}`;
    }
  } else {
    const bin = serverBinaries();
    if (!bin) reason = `no PostgreSQL 15+ under ${POSTGRES_ROOT}/*/bin: install Debian's postgresql package or set REVERIE_TEST_POSTGRES_URL`;
    else {
      try {
        const cluster = await startCluster(bin);
        url = cluster.url;
        stop = cluster.stop;
      } catch (error) {
        reason = `could not start a throwaway PostgreSQL cluster from ${bin}: ${firstLine((error as { stderr?: Buffer }).stderr?.toString() || error)}`;
      }
    }
  }
  if (reason) console.warn(`postgres: the real-server suites are skipped: ${reason}`);
  project.provide('postgresAdminUrl', url);
  project.provide('postgresSkipReason', reason);
  return stop;
}
