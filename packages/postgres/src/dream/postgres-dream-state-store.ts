import { hostname } from 'node:os';
import { type DreamStateStore, type LedgerLine, ledgerLineSchema, type SessionEnd, sessionEndSchema } from '@reverie/dream-state';
import { parseOptions } from '@reverie/core';
import { z } from 'zod';
import type { PostgresClient } from '../client/postgres-client';
import { ensureMigrated } from '../migrations/migrate-postgres';
import { type PostgresStoreOptions, resolveStoreOptions } from '../stores/postgres-store-options';
import type { DreamStateScope } from './dream-state-scope';
import { PostgresDreamCursorStore } from './postgres-dream-cursor-store';
import { PostgresDreamLock } from './postgres-dream-lock';
import { PostgresDeadLetterStore, PostgresDreamLog, PostgresSavedPlanStore } from './postgres-dream-records';
import { PostgresDreamRunStore } from './postgres-dream-run-store';
import { PostgresRecallState } from './postgres-recall-state';

export interface PostgresDreamStateStoreOptions extends PostgresStoreOptions {
  /** This process, as the lock's holder row records it (defaults: `process.pid`, `os.hostname()`). */
  pid?: number;
  host?: string;
  /**
   * How often the connection holding the dream lock is checked while a cycle runs, in ms
   * (default 15000): a lost connection is logged as an error, and it keeps the connection from
   * being dropped as idle.
   */
  lockCheckMs?: number;
}

const DEFAULT_LOCK_CHECK_MS = 15_000;

const optionsSchema = z
  .object({
    pid: z.number().int().optional(),
    host: z.string().min(1).optional(),
    lockCheckMs: z.number().int().min(10).optional(),
  })
  .loose();

/**
 * The dream engine's state (SPEC B6, B8, O3–O8) for one scope of a shared PostgreSQL database:
 * runs with their artifacts, plans, archives and journals, dead letters, saved plans, the ledger
 * and sessions, cursors with the consolidation cursor's fingerprints, recall events and signals
 * in `reverie_dream_*` tables led by the scope, and the lock as an advisory lock per scope held
 * on a connection of its own. Every write is committed before it returns, so a cycle interrupted
 * in one process (on one machine) is recovered, shown, retried and undone from another.
 * The tables are created by the migrations on first use.
 */
export class PostgresDreamStateStore implements DreamStateStore {
  readonly runs: PostgresDreamRunStore;
  readonly deadLetters: PostgresDeadLetterStore;
  readonly plans: PostgresSavedPlanStore;
  readonly ledger: PostgresDreamLog<LedgerLine>;
  readonly sessions: PostgresDreamLog<SessionEnd>;
  readonly cursors: PostgresDreamCursorStore;
  readonly recall: PostgresRecallState;
  readonly lock: PostgresDreamLock;
  readonly location = undefined;

  constructor(options: PostgresDreamStateStoreOptions) {
    const { client, scope, clock, logger } = resolveStoreOptions(options, 'PostgresDreamStateStore');
    parseOptions(optionsSchema, options, 'PostgresDreamStateStore options');
    const state: DreamStateScope = { scope, ready: () => ready(client) };
    this.runs = new PostgresDreamRunStore(state);
    this.deadLetters = new PostgresDeadLetterStore(state);
    this.plans = new PostgresSavedPlanStore(state);
    this.ledger = new PostgresDreamLog(state, 'ledger', ledgerLineSchema);
    this.sessions = new PostgresDreamLog(state, 'sessions', sessionEndSchema);
    this.cursors = new PostgresDreamCursorStore(state);
    this.recall = new PostgresRecallState(state);
    this.lock = new PostgresDreamLock(state, {
      clock,
      logger,
      pid: options.pid ?? process.pid,
      host: options.host ?? hostname(),
      checkMs: options.lockCheckMs ?? DEFAULT_LOCK_CHECK_MS,
    });
  }

  /** Releases a lock still held; the client is the caller's. */
  close(): Promise<void> {
    return this.lock.close();
  }
}

async function ready(client: PostgresClient): Promise<PostgresClient> {
  await ensureMigrated(client);
  return client;
}
