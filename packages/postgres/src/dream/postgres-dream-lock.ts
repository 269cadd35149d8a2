import { type IClock, type ILogger, newId, ReverieError, ReverieLockHeldError } from '@reverie/core';
import { type DreamLockHandle, type DreamLockStatus, type DreamStateLock, type LockHolder, lockHolderSchema } from '@reverie/dream-state';
import type { PostgresClient } from '../client/postgres-client';
import { dreamLockKeys } from './dream-lock-keys';
import { type DreamStateScope, jsonParam } from './dream-state-scope';

/** A session-level setting naming the connection, so a holder row tells which session wrote it. */
const SESSION_SETTING = 'reverie.dream_lock_session';

export interface PostgresDreamLockOptions {
  clock: IClock;
  logger: ILogger;
  /** This process, as the holder row records it. */
  pid: number;
  host: string;
  /** How often the lock's connection is checked while held, in ms. */
  checkMs: number;
}

/**
 * One runner per scope (SPEC O3) as a PostgreSQL session-level advisory lock (`dreamLockKeys`),
 * taken with `pg_try_advisory_lock` on a connection held for as long as the lock is: when the
 * holder's process dies or its connection drops, the server ends the session and the lock with
 * it. Beside it, a row of `reverie_dream_lock_holders` says who holds it (run, host, pid, since)
 * for `state()` and LOCK_HELD messages; a row whose session has ended is not reported, and the
 * next holder replaces it.
 *
 * Two stores sharing one connection (PGlite has only one) share its session, in which advisory
 * locks are re-entrant: there the holder row, which names the session, refuses the second.
 */
export class PostgresDreamLock implements DreamStateLock {
  private readonly keys: readonly [number, number];
  /** The handles this object took and has not released yet. */
  private readonly held = new Set<DreamLockHandle>();

  constructor(
    private readonly db: DreamStateScope,
    private readonly options: PostgresDreamLockOptions,
  ) {
    this.keys = dreamLockKeys(db.scope);
  }

  /**
   * Takes the lock on a connection of its own, kept until `release()` (or `close()`); throws
   * LOCK_HELD naming the holder when another session has it.
   */
  async acquire(runId?: string): Promise<DreamLockHandle> {
    const client = await this.db.ready();
    const holder: LockHolder = {
      pid: this.options.pid,
      host: this.options.host,
      acquiredAt: this.options.clock.now().toISOString(),
      ...(runId === undefined ? {} : { runId }),
      token: newId(),
    };
    let signalRelease!: () => void;
    const released = new Promise<void>((resolve) => (signalRelease = resolve));
    const lost = new AbortController();
    let settle!: (error?: unknown) => void;
    const taken = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
    // If the session ends with an error, its connection is closed, not pooled: the lock goes with it.
    const session = client
      .session(async (connection) => {
        let session: string;
        try {
          session = await this.take(connection, holder);
        } catch (error) {
          settle(error);
          return;
        }
        settle();
        await this.holdUntil(released, connection, holder, lost);
        await this.give(connection, holder, session);
      })
      .catch((error: unknown) => {
        settle(error);
        if (!lost.signal.aborted) lost.abort(this.lostError(holder, error));
        this.options.logger.warn('The dream lock session ended with an error; PostgreSQL released the lock with the session.', {
          scope: this.db.scope,
          error: String(error),
        });
      });
    await taken;
    let done = false;
    const handle: DreamLockHandle = {
      holder,
      lost: lost.signal,
      release: async () => {
        if (done) return;
        done = true;
        this.held.delete(handle);
        signalRelease();
        await session;
      },
    };
    this.held.add(handle);
    return handle;
  }

  /** Releases every lock this object holds (its store being closed). */
  async close(): Promise<void> {
    await Promise.all([...this.held].map((handle) => handle.release()));
  }

  /** Held (by the holder its row names) while some session has the advisory lock; free otherwise, whatever row is left. */
  async state(): Promise<DreamLockStatus> {
    const client = await this.db.ready();
    const [row] = await client.query<{ locked: boolean; holder: unknown; backend: number | null }>(
      `SELECT l.pid AS backend, l.granted IS TRUE AS locked, h.holder
         FROM (SELECT 1) one
         LEFT JOIN LATERAL (
           SELECT pid, granted FROM pg_locks
            WHERE locktype = 'advisory' AND granted AND objsubid = 2
              AND classid = ($2::int4)::oid AND objid = ($3::int4)::oid
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            LIMIT 1
         ) l ON true
         LEFT JOIN reverie_dream_lock_holders h ON h.scope = $1`,
      [this.db.scope, ...this.keys],
    );
    if (!row?.locked) return { status: 'free' };
    const holder = lockHolderSchema.safeParse(row.holder);
    return {
      status: 'held',
      holder: holder.success
        ? holder.data
        : { pid: row.backend ?? 0, host: 'unknown (a PostgreSQL session holds the advisory lock)', acquiredAt: 'unknown' },
      stale: false,
    };
  }

  /** On the lock's own connection: the advisory lock, then the holder row (or LOCK_HELD, leaving nothing taken). */
  private async take(connection: PostgresClient, holder: LockHolder): Promise<string> {
    const session = await sessionName(connection);
    const [attempt] = await connection.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::int4, $2::int4) AS locked', this.keys);
    if (!attempt?.locked) throw this.heldError(await this.currentHolder(connection));
    try {
      // One statement: a row written by this very session means it already held the lock
      // (re-entrant): another store on the same connection has it, and the row stays.
      const written = await connection.query(
        `INSERT INTO reverie_dream_lock_holders (scope, token, session, holder) VALUES ($1, $2, $3, $4::jsonb)
         ON CONFLICT (scope) DO UPDATE SET token = excluded.token, session = excluded.session, holder = excluded.holder
         WHERE reverie_dream_lock_holders.session <> excluded.session
         RETURNING token`,
        [this.db.scope, holder.token, session, jsonParam(holder)],
      );
      if (written.length === 0) throw this.heldError(await this.currentHolder(connection));
      return session;
    } catch (error) {
      await connection.query('SELECT pg_advisory_unlock($1::int4, $2::int4)', this.keys);
      throw error;
    }
  }

  /**
   * Waits for the release, checking the connection every `checkMs` (which also keeps it from
   * being dropped as idle). A lost connection took the lock with it: that is logged as an error,
   * reported on `lost` (the holder stops before its next write) and thrown, which ends the
   * session and closes the connection.
   */
  private async holdUntil(released: Promise<void>, connection: PostgresClient, holder: LockHolder, lost: AbortController): Promise<void> {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const tick = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), this.options.checkMs);
        timer.unref();
      });
      const done = await Promise.race([released.then(() => true), tick]);
      clearTimeout(timer);
      if (done) return;
      try {
        await connection.query('SELECT 1');
      } catch (error) {
        this.options.logger.error(
          'Lost the connection holding the dream lock: PostgreSQL released the lock, and another runner may start a cycle of this scope. The run stops before its next write.',
          {
            scope: this.db.scope,
            runId: holder.runId,
            error: String(error),
          },
        );
        lost.abort(this.lostError(holder, error));
        throw error;
      }
    }
  }

  /**
   * Removes the holder row and unlocks, if the session that took the lock is still this
   * connection's: a session that ended (PGlite reopened, a connection re-established) took the
   * lock with it, and unlocking in another would release a later holder's.
   */
  private async give(connection: PostgresClient, holder: LockHolder, session: string): Promise<void> {
    await connection.query('DELETE FROM reverie_dream_lock_holders WHERE scope = $1 AND token = $2', [this.db.scope, holder.token]);
    if ((await sessionName(connection)) !== session) return;
    await connection.query('SELECT pg_advisory_unlock($1::int4, $2::int4)', this.keys);
  }

  private async currentHolder(client: PostgresClient): Promise<LockHolder | undefined> {
    const [row] = await client.query<{ holder: unknown }>('SELECT holder FROM reverie_dream_lock_holders WHERE scope = $1', [
      this.db.scope,
    ]);
    return lockHolderSchema.safeParse(row?.holder).data;
  }

  private lostError(holder: LockHolder, cause: unknown): ReverieError {
    return new ReverieError(
      'LOCK_LOST',
      `Lost the dream lock of scope ${JSON.stringify(this.db.scope)}${holder.runId ? ` (run ${holder.runId})` : ''}: the connection holding it dropped, so another runner may take it. The run stopped before its next write; the next run (or recover()) finishes it.`,
      { cause, details: { scope: this.db.scope, ...(holder.runId ? { runId: holder.runId } : {}) } },
    );
  }

  private heldError(holder: LockHolder | undefined): ReverieLockHeldError {
    const who = holder
      ? `process ${holder.pid} on ${holder.host} since ${holder.acquiredAt}${holder.runId ? ` (run ${holder.runId})` : ''}`
      : 'another runner';
    return new ReverieLockHeldError(
      `Another dream run holds the dream lock of scope ${JSON.stringify(this.db.scope)}: ${who}. Wait for it to finish; PostgreSQL releases the lock as soon as its holder's connection ends, a crashed process included.`,
      { details: { scope: this.db.scope, ...(holder ? { holder } : {}) } },
    );
  }
}

/** The name of the connection's session, set on first use (a new connection, a restarted server: a new name). */
async function sessionName(connection: PostgresClient): Promise<string> {
  const [row] = await connection.query<{ name: string }>(
    "SELECT coalesce(nullif(current_setting($1, true), ''), set_config($1, $2, false)) AS name",
    [SESSION_SETTING, newId()],
  );
  return row!.name;
}
