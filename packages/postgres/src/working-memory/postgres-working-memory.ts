import { z } from 'zod';
import {
  buildWorkingMemoryEntry,
  DEFAULT_MAX_ENTRIES_PER_NAMESPACE,
  DEFAULT_WORKING_MEMORY_TTL_MS,
  type IWorkingMemory,
  MAX_WORKING_MEMORY_TTL_MS,
  MAX_WORKING_MEMORY_VALUE_LENGTH,
  namespaceOf,
  parseWorkingMemoryQuery,
  ReverieValidationError,
  validateWorkingMemoryKey,
  type WorkingMemoryEntry,
  workingMemoryDocumentText,
  workingMemoryEntrySchema,
  type WorkingMemorySearchQuery,
  type WorkingMemorySearchResult,
  type WorkingMemorySetOptions,
  type HybridRecallOptions,
} from '@reverie/core';
import { hybridRecallOptionsShape } from '@reverie/core/internal';
import type { PostgresClient } from '../client/postgres-client';
import { type StoreEmbeddings, storeEmbeddingsOf, textHash } from '../embeddings/store-embeddings';
import { documentTerms, tsvectorText } from '../search/search-terms';
import { WORKING_MEMORY_TABLES } from '../search/searched-tables';
import { STORED_TERMS_COLUMNS, storedTerms, type StoredTermsRow, TextIndex } from '../search/text-index';
import { SqlParams, underPrefixSql } from '../sql/sql-params';
import {
  parseStoreOptions,
  type PostgresStoreOptions,
  type ResolvedStoreOptions,
  resolveStoreOptions,
} from '../stores/postgres-store-options';
import { isoFromRow, recordFromRow } from '../stores/row-values';
import { StoreGate } from '../stores/store-gate';

export interface PostgresWorkingMemoryOptions extends PostgresStoreOptions, HybridRecallOptions {
  /** TTL of an entry saved without one, in ms (default 5 minutes). */
  defaultTtlMs?: number;
  /** Most entries one namespace holds; saving past it evicts the oldest stored (default 50). */
  maxEntriesPerNamespace?: number;
  /** Most characters of values one namespace holds; a save past it is INVALID_INPUT (default 8,000,000). */
  maxCharsPerNamespace?: number;
  /** How often this store deletes its scope's expired rows, in ms (default 1 hour; 0 turns it off). */
  sweepIntervalMs?: number;
}

export const DEFAULT_MAX_CHARS_PER_NAMESPACE = 8_000_000;
export const DEFAULT_WORKING_MEMORY_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** The longest delay `setInterval` accepts; anything longer silently becomes 1 ms. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

const workingMemoryOptionsSchema = z
  .object({
    defaultTtlMs: z.number().int().positive().max(MAX_WORKING_MEMORY_TTL_MS).optional(),
    maxEntriesPerNamespace: z.number().int().positive().max(100_000).optional(),
    maxCharsPerNamespace: z.number().int().min(MAX_WORKING_MEMORY_VALUE_LENGTH).max(1_000_000_000).optional(),
    sweepIntervalMs: z.number().int().min(0).max(MAX_TIMER_DELAY_MS).optional(),
    ...hybridRecallOptionsShape,
  })
  .loose();

const TABLE = WORKING_MEMORY_TABLES.documents;
const ENTRY_COLUMNS = 'key, value, category, tags, stored_at, expires_at';

type EntryRow = {
  key: string;
  value: string;
  category: string | null;
  tags: string[];
  stored_at: Date | string;
  expires_at: Date | string;
};

/**
 * `IWorkingMemory` (SPEC M7) on PostgreSQL: one row per key in `reverie_working_memory`, with
 * the reference store's behaviour — entries expire after their TTL (by this store's clock) and
 * are never returned after; a namespace holds at most `maxEntriesPerNamespace` entries, the
 * oldest stored evicted first; search is BM25 over key, value, category and tags (`TextIndex`),
 * hybrid with an `embedder` as the memory store's (SPEC M4): the unexpired entries' vectors in
 * `reverie_working_memory_embeddings`, computed in the background and deleted with their entry.
 *
 * A write locks its scope's search counts first, so the writes of a scope take turns and the
 * cap holds whatever runs at once; each is one transaction, which also deletes the scope's
 * expired rows. A timer (unref'd, hourly by default) does the same for a scope nobody writes.
 */
export class PostgresWorkingMemory implements IWorkingMemory {
  private readonly options: ResolvedStoreOptions;
  private readonly gate: StoreGate;
  private readonly index: TextIndex;
  private readonly embeddings: StoreEmbeddings | undefined;
  private readonly defaultTtlMs: number;
  private readonly maxPerNamespace: number;
  private readonly maxCharsPerNamespace: number;
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(options: PostgresWorkingMemoryOptions) {
    this.options = resolveStoreOptions(options, 'PostgresWorkingMemory');
    const valid = parseStoreOptions(workingMemoryOptionsSchema, options, 'PostgresWorkingMemory');
    this.gate = new StoreGate(this.options.client, 'working memory');
    this.index = new TextIndex(WORKING_MEMORY_TABLES, this.options.scope);
    this.embeddings = storeEmbeddingsOf(options, this.options, WORKING_MEMORY_TABLES, {
      what: 'working-memory entries',
      embeddable: (params) => `d.expires_at > ${params.add(this.now())}::timestamptz`,
    });
    this.defaultTtlMs = valid.defaultTtlMs ?? DEFAULT_WORKING_MEMORY_TTL_MS;
    this.maxPerNamespace = valid.maxEntriesPerNamespace ?? DEFAULT_MAX_ENTRIES_PER_NAMESPACE;
    this.maxCharsPerNamespace = valid.maxCharsPerNamespace ?? DEFAULT_MAX_CHARS_PER_NAMESPACE;
    const sweepIntervalMs = valid.sweepIntervalMs ?? DEFAULT_WORKING_MEMORY_SWEEP_INTERVAL_MS;
    if (sweepIntervalMs > 0) {
      this.sweepTimer = setInterval(() => this.periodicSweep(), sweepIntervalMs);
      this.sweepTimer.unref();
    }
  }

  async set(key: string, value: string, options: WorkingMemorySetOptions = {}): Promise<WorkingMemoryEntry> {
    this.gate.assertOpen();
    const entry = buildWorkingMemoryEntry(key, value, options, this.options.clock, this.defaultTtlMs);
    const namespace = namespaceOf(key);
    const text = workingMemoryDocumentText(entry);
    const terms = documentTerms(text);
    const client = await this.ready();
    await client.transaction(async (tx) => {
      await this.index.lock(tx);
      await this.dropExpired(tx);
      const [previous] = await tx.query<StoredTermsRow>(
        `DELETE FROM ${TABLE} WHERE scope = $1 AND key = $2 RETURNING ${STORED_TERMS_COLUMNS}`,
        [this.options.scope, key],
      );
      await tx.query(
        `INSERT INTO ${TABLE} (scope, key, namespace, value, category, tags, stored_at, expires_at, search_terms, term_count, text_hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::tsvector, $10, $11)`,
        [
          this.options.scope,
          key,
          namespace,
          entry.value,
          entry.category ?? null,
          entry.tags,
          entry.storedAt,
          entry.expiresAt,
          tsvectorText(terms.counts),
          terms.length,
          textHash(text),
        ],
      );
      await this.index.update(tx, previous && storedTerms(previous), terms);
      // The newest `maxPerNamespace` stay; `position` orders them as stored, whatever the clocks said.
      const evicted = await tx.query<StoredTermsRow>(
        `DELETE FROM ${TABLE} WHERE scope = $1 AND key IN (
           SELECT key FROM ${TABLE} WHERE scope = $1 AND namespace = $2 ORDER BY position DESC OFFSET $3
         ) RETURNING ${STORED_TERMS_COLUMNS}`,
        [this.options.scope, namespace, this.maxPerNamespace],
      );
      if (evicted.length > 0) await this.index.remove(tx, evicted.map(storedTerms));
      const [size] = await tx.query<{ total: string | number }>(
        `SELECT coalesce(sum(char_length(value)), 0) AS total FROM ${TABLE} WHERE scope = $1 AND namespace = $2`,
        [this.options.scope, namespace],
      );
      this.assertWithinSize(Number(size!.total), key, namespace);
    });
    this.embeddings?.kick();
    return { ...entry, tags: [...entry.tags] };
  }

  async get(key: string): Promise<WorkingMemoryEntry | undefined> {
    this.gate.assertOpen();
    validateWorkingMemoryKey(key);
    const client = await this.ready();
    const [row] = await client.query<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM ${TABLE} WHERE scope = $1 AND key = $2 AND expires_at > $3::timestamptz`,
      [this.options.scope, key, this.now()],
    );
    return row && this.entryFromRow(row);
  }

  async delete(key: string): Promise<boolean> {
    this.gate.assertOpen();
    validateWorkingMemoryKey(key);
    const now = this.now();
    const client = await this.ready();
    return client.transaction(async (tx) => {
      await this.index.lock(tx);
      const [removed] = await tx.query<StoredTermsRow & { live: boolean }>(
        `DELETE FROM ${TABLE} WHERE scope = $1 AND key = $2 RETURNING ${STORED_TERMS_COLUMNS}, expires_at > $3::timestamptz AS live`,
        [this.options.scope, key, now],
      );
      if (!removed) return false;
      await this.index.remove(tx, [storedTerms(removed)]);
      return removed.live;
    });
  }

  async list(prefix?: string): Promise<WorkingMemoryEntry[]> {
    this.gate.assertOpen();
    const params = new SqlParams();
    const conditions = [`scope = ${params.add(this.options.scope)}`, `expires_at > ${params.add(this.now())}::timestamptz`];
    if (prefix !== undefined) conditions.push(underPrefixSql(params, 'key', prefix));
    const client = await this.ready();
    const rows = await client.query<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM ${TABLE} WHERE ${conditions.join(' AND ')} ORDER BY key`,
      params.values,
    );
    return rows.map((row) => this.entryFromRow(row));
  }

  async search(query: WorkingMemorySearchQuery): Promise<WorkingMemorySearchResult[]> {
    this.gate.assertOpen();
    const { text, maxResults, filters } = parseWorkingMemoryQuery(query);
    const now = this.now();
    const matching = (params: SqlParams, alias: string) => {
      const conditions = [`${alias}.expires_at > ${params.add(now)}::timestamptz`];
      if (filters.prefix !== undefined) conditions.push(underPrefixSql(params, `${alias}.key`, filters.prefix));
      if (filters.category !== undefined)
        conditions.push(`${alias}.category IS NOT NULL AND ${underPrefixSql(params, `${alias}.category`, filters.category)}`);
      if (filters.tags !== undefined && filters.tags.length > 0) conditions.push(`${alias}.tags @> ${params.add(filters.tags)}::text[]`);
      return conditions.join(' AND ');
    };
    const client = await this.ready();
    if (text !== undefined) {
      const filter = (params: SqlParams) => matching(params, 'd');
      const keyword = (limit: number) => this.index.search(client, text, limit, filter);
      const hits = this.embeddings ? await this.embeddings.rank(text, maxResults, keyword, filter) : await keyword(maxResults);
      if (hits.length === 0) return [];
      const rows = await client.query<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM ${TABLE} WHERE scope = $1 AND key = ANY($2::text[])`, [
        this.options.scope,
        hits.map((hit) => hit.id),
      ]);
      const byKey = new Map(rows.map((row) => [row.key, row]));
      // An entry deleted between the two statements is left out.
      return hits.filter((hit) => byKey.has(hit.id)).map((hit) => ({ entry: this.entryFromRow(byKey.get(hit.id)!), score: hit.score }));
    }
    const params = new SqlParams();
    const where = `w.scope = ${params.add(this.options.scope)} AND ${matching(params, 'w')}`;
    const rows = await client.query<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM ${TABLE} w WHERE ${where} ORDER BY stored_at DESC, position DESC LIMIT ${params.add(maxResults)}`,
      params.values,
    );
    return rows.map((row) => ({ entry: this.entryFromRow(row), score: 0 }));
  }

  async sweep(): Promise<number> {
    this.gate.assertOpen();
    const client = await this.ready();
    return client.transaction(async (tx) => {
      await this.index.lock(tx);
      return this.dropExpired(tx);
    });
  }

  /** Stops the periodic sweep; `sweep()` still works. */
  stopSweep(): void {
    if (this.sweepTimer !== undefined) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }

  /** Waits until every unexpired entry of the scope has its vector (for tests and tools). */
  async flushEmbeddings(): Promise<void> {
    this.gate.assertOpen();
    await this.ready();
    await this.embeddings?.flush();
  }

  /** Stops the sweep and background embedding, and refuses every later call with STORE_CLOSED. */
  async close(): Promise<void> {
    this.stopSweep();
    this.gate.close();
    await this.embeddings?.close();
  }

  /** The client, once the store is open and the schema migrated; then starts embedding what is not yet embedded. */
  private async ready(): Promise<PostgresClient> {
    const client = await this.gate.ready();
    this.embeddings?.start();
    return client;
  }

  private periodicSweep(): void {
    this.sweep().catch((error: unknown) => {
      this.options.logger.warn('The periodic working-memory sweep failed; it runs again at the next interval.', {
        scope: this.options.scope,
        error: String(error),
      });
    });
  }

  /** Deletes the scope's expired rows (in a transaction holding the index lock); returns how many. */
  private async dropExpired(tx: PostgresClient): Promise<number> {
    const expired = await tx.query<StoredTermsRow>(
      `DELETE FROM ${TABLE} WHERE scope = $1 AND expires_at <= $2::timestamptz RETURNING ${STORED_TERMS_COLUMNS}`,
      [this.options.scope, this.now()],
    );
    if (expired.length > 0) await this.index.remove(tx, expired.map(storedTerms));
    return expired.length;
  }

  /** Refuses a save that would make its namespace hold more than `maxCharsPerNamespace` characters of values. */
  private assertWithinSize(total: number, key: string, namespace: string): void {
    if (total <= this.maxCharsPerNamespace) return;
    throw new ReverieValidationError(
      'INVALID_INPUT',
      `Cannot save ${key}: the namespace ${namespace} would hold ${total} characters of values, over its cap of ${this.maxCharsPerNamespace} (maxCharsPerNamespace). Delete entries you no longer need, or keep large data elsewhere and save a reference.`,
      { details: { key, namespace, total, cap: this.maxCharsPerNamespace } },
    );
  }

  private now(): string {
    return this.options.clock.now().toISOString();
  }

  private entryFromRow(row: EntryRow): WorkingMemoryEntry {
    const entry = {
      key: row.key,
      value: row.value,
      storedAt: isoFromRow(row.stored_at),
      expiresAt: isoFromRow(row.expires_at),
      ...(row.category === null ? {} : { category: row.category }),
      tags: row.tags,
    };
    return recordFromRow(workingMemoryEntrySchema, entry, { table: TABLE, scope: this.options.scope, key: row.key });
  }
}
