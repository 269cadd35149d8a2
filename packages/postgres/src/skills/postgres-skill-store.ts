import {
  checkCondition,
  type HybridRecallOptions,
  type ISkillStore,
  resolveSkillDraft,
  type Skill,
  skillDocumentText,
  type SkillDraft,
  skillSchema,
  type SkillSearchQuery,
  skillSearchQuerySchema,
  type SkillSearchResult,
  validateSkillName,
  type WriteCondition,
} from '@reverie/core';
import { hybridRecallOptionsShape, parseDraft } from '@reverie/core/internal';
import { z } from 'zod';
import type { PostgresClient } from '../client/postgres-client';
import { type StoreEmbeddings, storeEmbeddingsOf, textHash } from '../embeddings/store-embeddings';
import { documentTerms, tsvectorText } from '../search/search-terms';
import { SKILL_TABLES } from '../search/searched-tables';
import { STORED_TERMS_COLUMNS, storedTerms, type StoredTermsRow, TextIndex } from '../search/text-index';
import { SqlParams, underPrefixSql } from '../sql/sql-params';
import {
  parseStoreOptions,
  type PostgresStoreOptions,
  type ResolvedStoreOptions,
  resolveStoreOptions,
} from '../stores/postgres-store-options';
import { isoFromRow, normaliseTime, recordFromRow } from '../stores/row-values';
import { StoreGate } from '../stores/store-gate';

export interface PostgresSkillStoreOptions extends PostgresStoreOptions, HybridRecallOptions {}

const optionsSchema = z.object(hybridRecallOptionsShape).loose();

const SKILL_COLUMNS = 'name, summary, content, see_also, created_at, updated_at, last_used_at';

type SkillRow = {
  name: string;
  summary: string;
  content: string;
  see_also: string[];
  created_at: Date | string;
  updated_at: Date | string;
  last_used_at: Date | string | null;
};

/** A stored skill with what its row holds for the search counts. */
type CurrentRow = SkillRow & StoredTermsRow;

/**
 * `ISkillStore` (SPEC M13) on PostgreSQL: one row per skill in `reverie_skills`, searched with
 * BM25 over name, summary and content (`TextIndex`, the ranking of the other stores); with an
 * `embedder`, hybrid as the memory store's (SPEC M4): vectors in `reverie_skill_embeddings`,
 * computed in the background (`StoreEmbeddings`).
 *
 * A write locks its scope's search counts first, so the writes of a scope take turns: a
 * conditional save or delete (`ifUpdatedAt`) checks the skill as it is at that moment, and of
 * racing "only if new" saves exactly one wins. Every write is one transaction. Timestamps come
 * back in UTC (a `timestamptz` keeps the instant, not the offset). Names are case-sensitive.
 */
export class PostgresSkillStore implements ISkillStore {
  private readonly options: ResolvedStoreOptions;
  private readonly gate: StoreGate;
  private readonly index: TextIndex;
  private readonly embeddings: StoreEmbeddings | undefined;

  constructor(options: PostgresSkillStoreOptions) {
    this.options = resolveStoreOptions(options, 'PostgresSkillStore');
    parseStoreOptions(optionsSchema, options, 'PostgresSkillStore');
    this.gate = new StoreGate(this.options.client, 'skill store');
    this.index = new TextIndex(SKILL_TABLES, this.options.scope);
    this.embeddings = storeEmbeddingsOf(options, this.options, SKILL_TABLES, { what: 'skills' });
  }

  async get(name: string): Promise<Skill | undefined> {
    this.gate.assertOpen();
    validateSkillName(name);
    const client = await this.ready();
    const [row] = await client.query<SkillRow>(`SELECT ${SKILL_COLUMNS} FROM reverie_skills WHERE scope = $1 AND name = $2`, [
      this.options.scope,
      name,
    ]);
    return row && this.skillFromRow(row);
  }

  async save(draft: SkillDraft, condition?: WriteCondition): Promise<Skill> {
    this.gate.assertOpen();
    // Refuses a bad draft before touching the database.
    resolveSkillDraft(draft, () => undefined, this.options.clock);
    const client = await this.ready();
    const saved = await client.transaction(async (tx) => {
      await this.index.lock(tx);
      const current = await this.current(tx, draft.name);
      const skill = normaliseTimes(resolveSkillDraft(draft, () => current && this.skillFromRow(current), this.options.clock, condition));
      const text = skillDocumentText(skill);
      const terms = documentTerms(text);
      const values = [
        this.options.scope,
        skill.name,
        skill.summary,
        skill.content,
        skill.seeAlso,
        skill.createdAt,
        skill.updatedAt,
        skill.lastUsedAt,
        tsvectorText(terms.counts),
        terms.length,
        textHash(text),
      ];
      await tx.query(
        current
          ? `UPDATE reverie_skills SET summary = $3, content = $4, see_also = $5, created_at = $6, updated_at = $7, last_used_at = $8,
               search_terms = $9::tsvector, term_count = $10, text_hash = $11 WHERE scope = $1 AND name = $2`
          : `INSERT INTO reverie_skills (scope, name, summary, content, see_also, created_at, updated_at, last_used_at, search_terms, term_count, text_hash)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::tsvector, $10, $11)`,
        values,
      );
      await this.index.update(tx, current && storedTerms(current), terms);
      return skill;
    });
    this.embeddings?.kick();
    return saved;
  }

  async delete(name: string, condition?: WriteCondition): Promise<boolean> {
    this.gate.assertOpen();
    validateSkillName(name);
    const client = await this.ready();
    return client.transaction(async (tx) => {
      await this.index.lock(tx);
      const current = await this.current(tx, name);
      checkCondition(`Skill ${name}`, current && this.skillFromRow(current), condition);
      if (!current) return false;
      await tx.query('DELETE FROM reverie_skills WHERE scope = $1 AND name = $2', [this.options.scope, name]);
      await this.index.update(tx, storedTerms(current), undefined);
      return true;
    });
  }

  async list(options: { prefix?: string } = {}): Promise<Skill[]> {
    this.gate.assertOpen();
    const prefix = options.prefix === undefined ? undefined : validateSkillName(options.prefix);
    const params = new SqlParams();
    const conditions = [`scope = ${params.add(this.options.scope)}`];
    if (prefix !== undefined) conditions.push(underPrefixSql(params, 'name', prefix));
    const client = await this.ready();
    const rows = await client.query<SkillRow>(
      `SELECT ${SKILL_COLUMNS} FROM reverie_skills WHERE ${conditions.join(' AND ')} ORDER BY name`,
      params.values,
    );
    return rows.map((row) => this.skillFromRow(row));
  }

  async search(query: SkillSearchQuery): Promise<SkillSearchResult[]> {
    this.gate.assertOpen();
    if (query?.prefix !== undefined) validateSkillName(query.prefix);
    const { text, prefix, maxResults } = parseDraft(skillSearchQuerySchema, query, 'skill search');
    const client = await this.ready();
    if (text !== undefined && text.trim() !== '') {
      const filter = (params: SqlParams) => (prefix === undefined ? 'TRUE' : underPrefixSql(params, 'd.name', prefix));
      const keyword = (limit: number) => this.index.search(client, text, limit, filter);
      const hits = this.embeddings ? await this.embeddings.rank(text, maxResults, keyword, filter) : await keyword(maxResults);
      if (hits.length === 0) return [];
      const rows = await client.query<SkillRow>(`SELECT ${SKILL_COLUMNS} FROM reverie_skills WHERE scope = $1 AND name = ANY($2::text[])`, [
        this.options.scope,
        hits.map((hit) => hit.id),
      ]);
      const byName = new Map(rows.map((row) => [row.name, row]));
      // A skill deleted between the two statements is left out.
      return hits.filter((hit) => byName.has(hit.id)).map((hit) => ({ skill: this.skillFromRow(byName.get(hit.id)!), score: hit.score }));
    }
    const params = new SqlParams();
    const conditions = [`scope = ${params.add(this.options.scope)}`];
    if (prefix !== undefined) conditions.push(underPrefixSql(params, 'name', prefix));
    const rows = await client.query<SkillRow>(
      `SELECT ${SKILL_COLUMNS} FROM reverie_skills WHERE ${conditions.join(' AND ')} ORDER BY name LIMIT ${params.add(maxResults)}`,
      params.values,
    );
    return rows.map((row) => ({ skill: this.skillFromRow(row), score: 0 }));
  }

  /** Waits until every skill of the scope has its vector (for tests and tools). */
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

  /** The client, once the store is open and the schema migrated; then starts embedding what is not yet embedded. */
  private async ready(): Promise<PostgresClient> {
    const client = await this.gate.ready();
    this.embeddings?.start();
    return client;
  }

  /** The stored row of `name` with its search terms, locked until the transaction ends. */
  private async current(tx: PostgresClient, name: string): Promise<CurrentRow | undefined> {
    const [row] = await tx.query<CurrentRow>(
      `SELECT ${SKILL_COLUMNS}, ${STORED_TERMS_COLUMNS}
         FROM reverie_skills WHERE scope = $1 AND name = $2 FOR UPDATE`,
      [this.options.scope, name],
    );
    return row;
  }

  private skillFromRow(row: SkillRow): Skill {
    const skill = {
      name: row.name,
      summary: row.summary,
      content: row.content,
      seeAlso: row.see_also,
      createdAt: isoFromRow(row.created_at),
      updatedAt: isoFromRow(row.updated_at),
      lastUsedAt: row.last_used_at === null ? null : isoFromRow(row.last_used_at),
    };
    return recordFromRow(skillSchema, skill, { table: 'reverie_skills', scope: this.options.scope, key: row.name });
  }
}

/** The skill as PostgreSQL gives it back: its timestamps in UTC. Pure. */
function normaliseTimes(skill: Skill): Skill {
  return {
    ...skill,
    createdAt: normaliseTime(skill.createdAt),
    updatedAt: normaliseTime(skill.updatedAt),
    lastUsedAt: skill.lastUsedAt === null ? null : normaliseTime(skill.lastUsedAt),
  };
}
