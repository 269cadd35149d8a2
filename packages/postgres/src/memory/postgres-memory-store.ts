// Just over 400 lines: the store maps each ILongTermMemory operation onto one SQL statement or
// transaction, one method each; the SQL, migrations and row mapping are in files of their own.
import {
  assertValidId,
  browseMemory,
  type CategoryCount,
  checkCondition,
  copyMemoryEntry,
  type DecayOptions,
  type IClock,
  type ILongTermMemory,
  type MemoryChangePage,
  type MemoryChangeQuery,
  type MemoryDraft,
  type MemoryEntry,
  memoryDocumentText,
  memoryLabelWords,
  memoryPassageTexts,
  type MemoryNeighbour,
  type MemoryNeighbourQuery,
  type MemorySearchQuery,
  type MemorySearchResult,
  parseMemoryQuery,
  type ParsedMemoryQuery,
  resolveDecayOptions,
  resolveMemoryDraft,
  ReverieError,
  ReverieValidationError,
  isReverieError,
  validateCategory,
  type MemoryListOptions,
  type MemoryTier,
  parseListTier,
  searchTiers,
  type Thesaurus,
  type WriteCondition,
  type HybridRecallOptions,
} from '@reverie/core';
import {
  mergeHitLists,
  queryCues,
  rerankMemoryHits,
  rerankPool,
  NEIGHBOUR_QUERY,
  parseNeighbourQuery,
  hybridRecallOptionsShape,
} from '@reverie/core/internal';
import { z } from 'zod';
import { PostgresChangeFeed } from '../changes/postgres-change-feed';
import type { PostgresClient } from '../client/postgres-client';
import { type StoreEmbeddings, storeEmbeddingsOf, textHash } from '../embeddings/store-embeddings';
import { MEMORY_TABLES } from '../search/searched-tables';
import { parseStoreOptions, type PostgresStoreOptions, resolveStoreOptions } from '../stores/postgres-store-options';
import { StoreGate } from '../stores/store-gate';
import { ENTRY_COLUMNS, entryFromRow, type MemoryRow, normaliseTimes } from './memory-rows';
import { type DocumentTerms, documentTerms, tsvectorText, withPassageTerms } from '../search/search-terms';
import { STORED_TERMS_COLUMNS, storedTerms, type StoredTermsRow, TextIndex } from '../search/text-index';
import { SqlParams } from '../sql/sql-params';
import { memoryFilterSql, notedWithinSql } from './memory-filter-sql';

export interface PostgresMemoryStoreOptions extends PostgresStoreOptions, HybridRecallOptions {
  /** SPEC D7: how importance fades, applied when browsing (default graceDays 30, halfLifeDays 45, floor 0.1). */
  decay?: Partial<DecayOptions>;
  /**
   * Also match the synonyms of a query's words that this thesaurus gives, below the words' own
   * forms, as `FileMemoryStore` does (e.g. `await loadWordNetThesaurus()` of `reverie`; default none).
   */
  synonyms?: Thesaurus;
}

const optionsSchema = z
  .object({
    ...hybridRecallOptionsShape,
    synonyms: z.custom<Thesaurus>((value) => typeof value === 'function', 'must be a function from a word to its synonyms').optional(),
  })
  .loose();

/** The feed name of the long-term memory in `reverie_change_feeds`. */
const FEED = 'memory';
/** Changes removed per statement when the feed is compacted: short statements, however long the backlog. */
const COMPACT_BATCH = 10_000;

/**
 * `ILongTermMemory` on PostgreSQL (SPEC M1–M4, B6, B8, B12) for one scope of a shared database:
 * one row per entry in `reverie_memory`, BM25 recall through a GIN index, optional hybrid recall
 * with vectors in pgvector (or `real[]`), and the change feed. Every write is one transaction
 * that first locks the scope's feed row, so the writers of a scope take turns, the change feed
 * is in commit order and `updatedAt` only moves forward; scopes never wait for each other.
 */
export class PostgresMemoryStore implements ILongTermMemory {
  private readonly client: PostgresClient;
  private readonly scope: string;
  private readonly clock: IClock;
  private readonly decay: DecayOptions;
  private readonly feed: PostgresChangeFeed;
  private readonly text: TextIndex;
  private readonly embeddings: StoreEmbeddings | undefined;
  private readonly gate: StoreGate;
  /** SPEC B13: this store keeps a cold tier (the `tier` column). */
  readonly tiers = true;

  constructor(options: PostgresMemoryStoreOptions) {
    const resolved = resolveStoreOptions(options, 'PostgresMemoryStore');
    parseStoreOptions(optionsSchema, options, 'PostgresMemoryStore');
    ({ client: this.client, scope: this.scope, clock: this.clock } = resolved);
    this.gate = new StoreGate(this.client, 'memory store');
    this.decay = resolveDecayOptions(options.decay);
    this.feed = new PostgresChangeFeed(this.scope, FEED);
    this.text = new TextIndex(MEMORY_TABLES, this.scope, options.synonyms);
    this.embeddings = storeEmbeddingsOf(options, resolved, MEMORY_TABLES, { what: 'memory entries' });
  }

  async get(id: string): Promise<MemoryEntry | undefined> {
    this.gate.assertOpen();
    assertValidId(id);
    const client = await this.ready();
    const [row] = await client.query<MemoryRow>(`SELECT ${ENTRY_COLUMNS} FROM reverie_memory WHERE scope = $1 AND id = $2`, [
      this.scope,
      id,
    ]);
    return row && entryFromRow(row, this.scope);
  }

  async save(draft: MemoryDraft, condition?: WriteCondition): Promise<MemoryEntry> {
    this.gate.assertOpen();
    const [saved] = await this.write([{ draft: withId(draft, this.clock), condition }]);
    return saved!;
  }

  /**
   * Saves `drafts` in one transaction, as saving them one by one in this order would (ids,
   * timestamps, term counts and one change per draft in the feed, in order), but in a handful of
   * statements: for imports and bulk loads. All are saved or, on any error, none; every draft is
   * checked before the database is touched (a bad one is named by its index). The scope's
   * writers wait while it runs, so keep a call to a few thousand drafts.
   */
  async saveMany(drafts: readonly MemoryDraft[]): Promise<MemoryEntry[]> {
    this.gate.assertOpen();
    if (!Array.isArray(drafts)) throw new ReverieValidationError('INVALID_INPUT', 'saveMany takes an array of memory drafts.');
    const items = drafts.map((draft, index) => {
      try {
        return { draft: withId(draft, this.clock) };
      } catch (error) {
        if (!isReverieError(error)) throw error;
        throw new ReverieError(error.code, `saveMany: draft ${index}: ${error.message}`, {
          cause: error,
          details: { ...error.details, index },
        });
      }
    });
    return items.length === 0 ? [] : this.write(items);
  }

  async delete(id: string, condition?: WriteCondition): Promise<boolean> {
    this.gate.assertOpen();
    assertValidId(id);
    const client = await this.ready();
    return client.transaction(async (tx) => {
      await this.feed.lock(tx);
      const [row] = await tx.query<{ updated_at: Date | string } & StoredTermsRow & PassageTermsRow>(
        `SELECT updated_at, ${STORED_TERMS_COLUMNS}, ${PASSAGE_TERMS_COLUMN} FROM reverie_memory m WHERE scope = $1 AND id = $2`,
        [this.scope, id],
      );
      const current = row && { updatedAt: new Date(row.updated_at).toISOString() };
      checkCondition(`Memory entry ${id}`, current, condition);
      if (!row) return false;
      // Its passages' rows go with it (ON DELETE CASCADE).
      await tx.query('DELETE FROM reverie_memory WHERE scope = $1 AND id = $2', [this.scope, id]);
      await this.text.update(tx, storedEntryTerms(row), undefined);
      await this.feed.append(tx, [id], 'delete');
      return true;
    });
  }

  async search(query: MemorySearchQuery): Promise<MemorySearchResult[]> {
    this.gate.assertOpen();
    const parsed = parseMemoryQuery(query, this.clock.now());
    const client = await this.ready();
    return searchTiers(parsed.tiers, parsed.maxResults, parsed.text, (tier, limit) => this.searchTier(client, parsed, tier, limit));
  }

  /** One tier's best `limit` entries (SPEC B13): the same ranking, with the tier in every statement's filter. */
  private async searchTier(client: PostgresClient, parsed: ParsedMemoryQuery, tier: MemoryTier, maxResults: number) {
    if (parsed.text === undefined) return this.browse(client, { ...parsed, maxResults }, tier);
    const { text } = parsed;
    const cues = queryCues(text);
    const filter = (params: SqlParams) => memoryFilterSql(params, { ...parsed, tier }, 'd');
    // The text ranking's best, and its best among the entries noted within the periods the query names (see `rerankMemoryHits`).
    const dated = (params: SqlParams) => `${filter(params)} AND (${notedWithinSql(params, cues.periods, 'd')})`;
    const keyword = async (limit: number) => {
      const hits = await this.text.search(client, text, limit, filter);
      return cues.periods.length === 0 ? hits : mergeHitLists(hits, await this.text.search(client, text, limit, dated));
    };
    const pool = rerankPool(maxResults, cues);
    const hits = this.embeddings ? await this.embeddings.rank(text, maxResults, keyword, filter, pool) : await keyword(pool);
    const entries = await this.entriesById(
      client,
      hits.map((hit) => hit.id),
    );
    return rerankMemoryHits(
      hits.filter((hit) => entries.has(hit.id)),
      cues,
      (id) => entries.get(id),
      maxResults,
    ).map((hit) => ({ entry: entries.get(hit.id)!, score: hit.score }));
  }

  async list(options: MemoryListOptions = {}): Promise<MemoryEntry[]> {
    this.gate.assertOpen();
    const category = options.category === undefined ? undefined : validateCategory(options.category);
    const tier = parseListTier(options.tier);
    const client = await this.ready();
    const params = new SqlParams();
    const scope = params.add(this.scope);
    const filter = memoryFilterSql(params, { category, tier });
    const rows = await client.query<MemoryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM reverie_memory m WHERE m.scope = ${scope} AND ${filter} ORDER BY m.created_at, m.id`,
      params.values,
    );
    return rows.map((row) => entryFromRow(row, this.scope));
  }

  async listCategories(): Promise<CategoryCount[]> {
    this.gate.assertOpen();
    const client = await this.ready();
    const rows = await client.query<{ category: string; count: number | string }>(
      'SELECT category, count(*) AS count FROM reverie_memory WHERE scope = $1 GROUP BY category ORDER BY category',
      [this.scope],
    );
    return rows.map((row) => ({ category: row.category, count: Number(row.count) }));
  }

  /** SPEC B12: the scope's saves and deletes in commit order, from `reverie_changes`. */
  async changes(query?: MemoryChangeQuery): Promise<MemoryChangePage> {
    this.gate.assertOpen();
    const client = await this.ready();
    const page = await this.feed.read(client, query);
    return { ...page, changes: page.changes.map((change) => ({ id: change.key, op: change.op, cursor: change.cursor })) };
  }

  /**
   * SPEC B12: removes from `reverie_changes` the scope's changes that every cursor of `keep` has
   * read past (the dream engine passes its readers' cursors after a successful cycle), at most
   * `COMPACT_BATCH` rows per statement. A cursor from before what is kept gets a reset.
   */
  async compactChanges(keep: readonly string[]): Promise<{ removed: number }> {
    this.gate.assertOpen();
    const client = await this.ready();
    return { removed: await this.feed.compact(client, keep, COMPACT_BATCH) };
  }

  /**
   * SPEC B12: each entry's BM25 neighbours in the scope (its rarest terms, as the file store
   * asks), for any number of ids in six statements: the entries, the scope's counts, their words'
   * frequencies, the vocabulary, one ranking of every entry's query, the neighbours' rows.
   */
  async neighbours(ids: readonly string[], query?: MemoryNeighbourQuery): Promise<Map<string, MemorySearchResult[]>> {
    const { client, hitsOf } = await this.rankNeighbours(ids, query);
    const neighbours = await this.entriesById(client, [...new Set([...hitsOf.values()].flat().map((hit) => hit.id))]);
    const found = new Map<string, MemorySearchResult[]>();
    for (const [id, hits] of hitsOf) {
      found.set(
        id,
        hits.flatMap((hit) => {
          const entry = neighbours.get(hit.id);
          return entry ? [{ entry, score: hit.score }] : [];
        }),
      );
    }
    return found;
  }

  /** `neighbours()` as ids and scores: the same statements, without reading the neighbours' rows. */
  async neighbourIds(ids: readonly string[], query?: MemoryNeighbourQuery): Promise<Map<string, MemoryNeighbour[]>> {
    return (await this.rankNeighbours(ids, query)).hitsOf;
  }

  /** Each known id's neighbours, best first, scored relative to the entry's own score (SPEC B12). */
  private async rankNeighbours(
    ids: readonly string[],
    query?: MemoryNeighbourQuery,
  ): Promise<{ client: PostgresClient; hitsOf: Map<string, MemoryNeighbour[]> }> {
    this.gate.assertOpen();
    ids.forEach(assertValidId);
    const { limit } = parseNeighbourQuery(query);
    const client = await this.ready();
    const entries = await this.entriesById(client, [...new Set(ids)]);
    const hitsOf = new Map<string, MemoryNeighbour[]>();
    if (entries.size === 0) return { client, hitsOf };
    const stats = await this.text.stats(client);
    const { maxTerms, maxDocumentShare } = NEIGHBOUR_QUERY as { maxTerms: number; maxDocumentShare: number };
    const now = this.clock.now();
    // Only the facts that hold now are neighbours (SPEC B9); each entry itself is scored, to scale by.
    // Cold entries are never neighbours (SPEC B13): consolidation costs in proportion to the hot set.
    const filter = (params: SqlParams) => memoryFilterSql(params, { validity: { now }, tier: 'hot' }, 'd');
    const documents = [...new Set(ids)].filter((id) => entries.has(id)).map((id) => ({ key: id, text: entries.get(id)!.content }));
    const ranked = await this.text.searchRarest(client, documents, limit + 1, { maxTerms, maxDocumentShare, stats, filter });
    for (const [id, all] of ranked) {
      const best = all[0]?.score ?? 0;
      hitsOf.set(
        id,
        all
          .filter((hit) => hit.id !== id && hit.score > 0)
          .slice(0, limit)
          .map((hit) => ({ id: hit.id, score: hit.score / best })),
      );
    }
    return { client, hitsOf };
  }

  /** Waits until every entry of the scope has its vector (for tests and tools). */
  async flushEmbeddings(): Promise<void> {
    this.gate.assertOpen();
    await this.ready();
    await this.embeddings?.flush();
  }

  /** Stops background embedding; the client stays open (it is the caller's). */
  async close(): Promise<void> {
    this.gate.close();
    await this.embeddings?.close();
  }

  /**
   * Saves the drafts (each with its id) in one transaction that locks the scope's feed first:
   * each resolved against the entry as the drafts before it left it, then one upsert of every
   * entry's last version, the term counts moved from what was stored to that, and one change per
   * draft, in order.
   */
  private async write(
    items: ReadonlyArray<{ draft: MemoryDraft & { id: string }; condition?: WriteCondition | undefined }>,
  ): Promise<MemoryEntry[]> {
    const client = await this.ready();
    const saved = await client.transaction(async (tx) => {
      await this.feed.lock(tx);
      const rows = await tx.query<MemoryRow & StoredTermsRow & PassageTermsRow>(
        `SELECT ${ENTRY_COLUMNS}, ${STORED_TERMS_COLUMNS}, ${PASSAGE_TERMS_COLUMN} FROM reverie_memory m WHERE scope = $1 AND id = ANY($2::text[])`,
        [this.scope, [...new Set(items.map((item) => item.draft.id))]],
      );
      const stored = new Map(rows.map((row) => [row.id, storedEntryTerms(row)]));
      const current = new Map(rows.map((row) => [row.id, entryFromRow(row, this.scope)]));
      const latest = new Map<string, { entry: MemoryEntry; text: string; terms: DocumentTerms; passages: DocumentTerms[] }>();
      const entries = items.map(({ draft, condition }) => {
        const entry = normaliseTimes(resolveMemoryDraft(draft, (id) => current.get(id), this.clock, condition, this.decay));
        current.set(entry.id, entry);
        const text = memoryDocumentText(entry);
        const label = memoryLabelWords(entry);
        latest.set(entry.id, {
          entry,
          text,
          terms: documentTerms(text, label),
          passages: memoryPassageTexts(entry).map((passage) => documentTerms(passage, label)),
        });
        return entry;
      });
      const records = [...latest.values()].map(({ entry, text, terms }) => ({
        id: entry.id,
        content: entry.content,
        category: entry.category,
        tags: entry.tags,
        metadata: entry.metadata,
        created_at: entry.createdAt,
        updated_at: entry.updatedAt,
        last_seen_at: entry.lastSeenAt,
        importance: entry.importance,
        importance_at: entry.importanceAt ?? null,
        reinforcement_count: entry.reinforcementCount,
        search_terms: tsvectorText(terms.counts),
        term_count: terms.length,
        text_hash: textHash(text),
        valid_from: entry.validFrom ?? null,
        valid_to: entry.validTo ?? null,
        superseded_by: entry.supersededBy ?? null,
        lineage: entry.lineage ?? null,
        tier: entry.tier ?? 'hot',
      }));
      await tx.query(
        `INSERT INTO reverie_memory (scope, id, content, category, tags, metadata, created_at, updated_at, last_seen_at, importance, importance_at,
                                     reinforcement_count, search_terms, term_count, text_hash, valid_from, valid_to, superseded_by, lineage, tier)
         SELECT $1, r.id, r.content, r.category, r.tags, r.metadata, r.created_at, r.updated_at, r.last_seen_at, r.importance, r.importance_at,
                r.reinforcement_count, r.search_terms::tsvector, r.term_count, r.text_hash, r.valid_from, r.valid_to, r.superseded_by, r.lineage, r.tier
           FROM jsonb_to_recordset($2::jsonb) AS r(id text, content text, category text, tags text[], metadata jsonb, created_at timestamptz,
                updated_at timestamptz, last_seen_at timestamptz, importance float8, importance_at timestamptz, reinforcement_count integer,
                search_terms text, term_count integer, text_hash text, valid_from timestamptz, valid_to timestamptz, superseded_by text, lineage jsonb, tier text)
         ON CONFLICT (scope, id) DO UPDATE SET
           content = excluded.content, category = excluded.category, tags = excluded.tags, metadata = excluded.metadata,
           created_at = excluded.created_at, updated_at = excluded.updated_at, last_seen_at = excluded.last_seen_at,
           importance = excluded.importance, importance_at = excluded.importance_at, reinforcement_count = excluded.reinforcement_count,
           search_terms = excluded.search_terms, term_count = excluded.term_count, text_hash = excluded.text_hash,
           valid_from = excluded.valid_from, valid_to = excluded.valid_to, superseded_by = excluded.superseded_by, lineage = excluded.lineage, tier = excluded.tier`,
        [this.scope, JSON.stringify(records)],
      );
      await this.writePassages(
        tx,
        rows.filter((row) => row.passage_lexemes.length > 0).map((row) => row.id),
        [...latest.values()],
      );
      await this.text.updateMany(
        tx,
        [...latest.values()].map(({ entry, terms, passages }) => ({
          before: stored.get(entry.id),
          after: withPassageTerms(terms, passages),
        })),
      );
      await this.feed.append(
        tx,
        entries.map((entry) => entry.id),
        'save',
      );
      return entries;
    });
    this.embeddings?.kick();
    return saved.map(copyMemoryEntry);
  }

  /**
   * Replaces the passage rows (SPEC M3) of the entries that had some (`previous`) with those of the
   * entries as written: two statements at most, none when no entry had or has passages.
   */
  private async writePassages(
    tx: PostgresClient,
    previous: readonly string[],
    written: ReadonlyArray<{ entry: MemoryEntry; passages: readonly DocumentTerms[] }>,
  ): Promise<void> {
    if (previous.length > 0) {
      await tx.query('DELETE FROM reverie_memory_passages WHERE scope = $1 AND id = ANY($2::text[])', [this.scope, previous]);
    }
    const rows = written.flatMap(({ entry, passages }) =>
      passages.map((terms, n) => ({ id: entry.id, n, search_terms: tsvectorText(terms.counts), term_count: terms.length })),
    );
    if (rows.length === 0) return;
    await tx.query(
      `INSERT INTO reverie_memory_passages (scope, id, n, search_terms, term_count)
       SELECT $1, r.id, r.n, r.search_terms::tsvector, r.term_count
         FROM jsonb_to_recordset($2::jsonb) AS r(id text, n integer, search_terms text, term_count integer)`,
      [this.scope, JSON.stringify(rows)],
    );
  }

  /**
   * Browsing without text (SPEC D7): the database orders the scope's matching entries by
   * importance decayed to now, then most recently seen, then id, and returns the top ones,
   * which are scored (and ordered again) with `effectiveImportance`'s own arithmetic.
   */
  private async browse(client: PostgresClient, parsed: ParsedMemoryQuery, tier: MemoryTier): Promise<MemorySearchResult[]> {
    const params = new SqlParams();
    const scope = params.add(this.scope);
    const now = params.add(parsed.validity.now.toISOString());
    const floor = params.add(this.decay.floor);
    const halfLife = params.add(this.decay.halfLifeDays);
    const grace = params.add(this.decay.graceDays);
    const filter = memoryFilterSql(params, { ...parsed, tier });
    const decayed = `least(1, greatest(0, CASE WHEN ${halfLife}::float8 <= 0 OR m.importance < ${floor}::float8 THEN m.importance
      ELSE greatest(${floor}::float8, m.importance * power(0.5::float8, greatest(0, extract(epoch FROM (${now}::timestamptz
        - greatest(coalesce(m.importance_at, m.last_seen_at), m.last_seen_at + make_interval(secs => ${grace}::float8 * 86400)))))::float8 / 86400 / ${halfLife}::float8))
      END))`;
    const rows = await client.query<MemoryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM reverie_memory m WHERE m.scope = ${scope} AND ${filter}
        ORDER BY ${decayed} DESC, m.last_seen_at DESC, m.id LIMIT ${params.add(parsed.maxResults)}`,
      params.values,
    );
    return browseMemory(
      rows.map((row) => entryFromRow(row, this.scope)),
      parsed,
      { now: parsed.validity.now, decay: this.decay },
    );
  }

  private async entriesById(client: PostgresClient, ids: readonly string[]): Promise<Map<string, MemoryEntry>> {
    if (ids.length === 0) return new Map();
    const rows = await client.query<MemoryRow>(`SELECT ${ENTRY_COLUMNS} FROM reverie_memory WHERE scope = $1 AND id = ANY($2::text[])`, [
      this.scope,
      ids,
    ]);
    return new Map(rows.map((row) => [row.id, entryFromRow(row, this.scope)]));
  }

  /** The client, once the store is open and the schema migrated; then starts embedding what is not yet embedded. */
  private async ready(): Promise<PostgresClient> {
    const client = await this.gate.ready();
    this.embeddings?.start();
    return client;
  }
}

/**
 * The draft with its id: its own, or a new one. Checks the draft first (as a save would, against
 * no stored entry), so bad input fails before the database is touched.
 */
function withId(draft: MemoryDraft, clock: IClock): MemoryDraft & { id: string } {
  const probe = resolveMemoryDraft(draft, () => undefined, clock);
  return { ...draft, id: draft.id ?? probe.id };
}

/** The terms of an entry's passages as stored (`PassageTermsRow`), selected from `reverie_memory m`. */
const PASSAGE_TERMS_COLUMN =
  'ARRAY(SELECT unnest(tsvector_to_array(p.search_terms)) FROM reverie_memory_passages p WHERE p.scope = m.scope AND p.id = m.id) AS passage_lexemes';

/** A row with `PASSAGE_TERMS_COLUMN`. */
type PassageTermsRow = { passage_lexemes: string[] };

/** What a stored entry counts in the document frequencies: its own terms and its passages' (see `withPassageTerms`). */
function storedEntryTerms(row: StoredTermsRow & PassageTermsRow): DocumentTerms {
  return withPassageTerms(storedTerms(row), [{ counts: new Map(row.passage_lexemes.map((term) => [term, 1])) }]);
}
