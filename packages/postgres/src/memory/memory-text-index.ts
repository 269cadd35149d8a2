import { BM25_B, BM25_K1, bm25Idf, type Bm25Hit, rarestTerms, tokenize, weighQueryTerms } from '@reverie/core';
import type { PostgresClient } from '../client/postgres-client';
import { documentFrequencyDelta, type DocumentTerms, tsqueryText } from './search-terms';
import { memoryFilterSql, SqlParams } from './sql-params';

/** The highest code point: `term || MAX_CHAR` bounds every longer term that begins with `term`. */
const MAX_CHAR = '\u{10FFFF}';

export interface TextFilters {
  category?: string | undefined;
  tags?: readonly string[] | undefined;
}

export interface ScopeStats {
  entries: number;
  averageLength: number;
}

/**
 * BM25 over a scope's entries in PostgreSQL, scored as the file store's `Bm25Index` scores
 * (same terms, idf, prefix expansion and length normalisation): the GIN index on
 * `(scope, search_terms)` finds the entries holding a query term; the document frequencies of
 * `reverie_memory_terms` and the counts of `reverie_memory_stats` give the idf and the average
 * length; the term frequencies are read from the tsvector's positions.
 */
export class MemoryTextIndex {
  constructor(private readonly scope: string) {}

  /** Keeps the frequencies and counts in step with a document going from `before` to `after` (in the write's transaction). */
  async update(tx: PostgresClient, before: DocumentTerms | undefined, after: DocumentTerms | undefined): Promise<void> {
    const delta = documentFrequencyDelta(before?.counts, after?.counts);
    const gained = [...delta.keys()].filter((term) => delta.get(term)! > 0).sort();
    const lost = [...delta.keys()].filter((term) => delta.get(term)! < 0).sort();
    if (gained.length > 0) {
      await tx.query(
        `INSERT INTO reverie_memory_terms AS t (scope, term, df) SELECT $1, term, 1 FROM unnest($2::text[]) AS d(term)
         ON CONFLICT (scope, term) DO UPDATE SET df = t.df + 1`,
        [this.scope, gained],
      );
    }
    if (lost.length > 0) {
      await tx.query('DELETE FROM reverie_memory_terms WHERE scope = $1 AND term = ANY($2::text[]) AND df = 1', [this.scope, lost]);
      await tx.query('UPDATE reverie_memory_terms SET df = df - 1 WHERE scope = $1 AND term = ANY($2::text[])', [this.scope, lost]);
    }
    const entries = (after ? 1 : 0) - (before ? 1 : 0);
    const length = (after?.length ?? 0) - (before?.length ?? 0);
    if (entries === 0 && length === 0) return;
    await tx.query(
      `INSERT INTO reverie_memory_stats AS s (scope, entries, total_length) VALUES ($1, $2, $3)
       ON CONFLICT (scope) DO UPDATE SET entries = s.entries + excluded.entries, total_length = s.total_length + excluded.total_length`,
      [this.scope, entries, length],
    );
  }

  /** The best `limit` entries for `text` that pass the filters, best first (ties by id). */
  async search(client: PostgresClient, text: string, limit: number, filters: TextFilters = {}): Promise<Bm25Hit[]> {
    const queryTerms = [...new Set(tokenize(text))];
    const stats = queryTerms.length === 0 ? undefined : await this.stats(client);
    return stats ? this.searchTerms(client, queryTerms, stats, limit, filters) : [];
  }

  private async searchTerms(client: PostgresClient, queryTerms: readonly string[], stats: ScopeStats, limit: number, filters: TextFilters): Promise<Bm25Hit[]> {
    const vocabulary = await this.vocabulary(client, queryTerms);
    const expansions = (term: string) => vocabulary.filter((known) => known.term !== term && known.term.startsWith(term)).map((known) => known.term);
    const weights = weighQueryTerms(queryTerms, (term) => vocabulary.some((known) => known.term === term), expansions);
    const df = new Map(vocabulary.map((known) => [known.term, known.df]));
    const factors = new Map([...weights].map(([term, weight]) => [term, weight * bm25Idf(stats.entries, df.get(term)!)]));
    return this.rank(client, factors, stats, limit, filters);
  }

  /**
   * The neighbours' query of an entry (`NEIGHBOUR_QUERY` of `@reverie/core`): its `maxTerms`
   * rarest terms, leaving out those in more than `maxDocumentShare` of the entries, with prefix
   * expansion; the hits are scored as `search` scores them.
   */
  async searchRarest(client: PostgresClient, text: string, limit: number, options: { maxTerms: number; maxDocumentShare: number; stats: ScopeStats | undefined }): Promise<Bm25Hit[]> {
    const terms = [...new Set(tokenize(text))];
    const { stats } = options;
    if (terms.length === 0 || !stats) return [];
    const known = await client.query<{ term: string; df: number }>(
      'SELECT term, df FROM reverie_memory_terms WHERE scope = $1 AND term = ANY($2::text[])',
      [this.scope, terms],
    );
    const rarest = rarestTerms(known.map((row) => ({ term: row.term, df: Number(row.df) })), options.maxTerms, stats.entries, options.maxDocumentShare);
    return rarest.length === 0 ? [] : this.searchTerms(client, rarest, stats, limit, {});
  }

  /** The scope's entry count and average length (undefined for an empty scope), as `searchRarest` takes them. */
  async stats(client: PostgresClient): Promise<ScopeStats | undefined> {
    const [row] = await client.query<{ entries: string | number; total_length: string | number }>(
      'SELECT entries, total_length FROM reverie_memory_stats WHERE scope = $1',
      [this.scope],
    );
    const entries = Number(row?.entries ?? 0);
    if (entries <= 0) return undefined;
    return { entries, averageLength: Number(row!.total_length) / entries || 1 };
  }

  /**
   * The vocabulary's terms that equal a query term, and for each query term the first 25 terms
   * (alphabetically) that begin with it: its exact match and up to 24 expansions.
   */
  private async vocabulary(client: PostgresClient, queryTerms: readonly string[]): Promise<Array<{ term: string; df: number }>> {
    const rows = await client.query<{ term: string; df: number }>(
      `SELECT DISTINCT found.term, found.df
         FROM unnest($2::text[]) AS q(term)
         CROSS JOIN LATERAL (
           SELECT t.term, t.df FROM reverie_memory_terms t
            WHERE t.scope = $1 AND t.term >= q.term AND t.term < q.term || $3
            ORDER BY t.term LIMIT 25
         ) found`,
      [this.scope, queryTerms, MAX_CHAR],
    );
    return rows.map((row) => ({ term: row.term, df: Number(row.df) })).sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  }

  private async rank(client: PostgresClient, factors: ReadonlyMap<string, number>, stats: ScopeStats, limit: number, filters: TextFilters): Promise<Bm25Hit[]> {
    if (factors.size === 0) return [];
    const params = new SqlParams();
    const scope = params.add(this.scope);
    const terms = [...factors.keys()];
    const query = params.add(tsqueryText(terms));
    const termList = params.add(terms);
    const factorList = params.add(terms.map((term) => factors.get(term)!));
    const average = params.add(stats.averageLength);
    const filter = memoryFilterSql(params, filters);
    const rows = await client.query<{ id: string; score: number }>(
      `SELECT m.id, sum(w.factor * (u.tf * ${BM25_K1 + 1}) / (u.tf + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * m.term_count / ${average}::float8))) AS score
         FROM reverie_memory m
         CROSS JOIN LATERAL (SELECT lexeme, coalesce(array_length(positions, 1), 1) AS tf FROM unnest(m.search_terms)) u
         JOIN unnest(${termList}::text[], ${factorList}::float8[]) AS w(term, factor) ON w.term = u.lexeme
        WHERE m.scope = ${scope} AND m.search_terms @@ ${query}::tsquery AND ${filter}
        GROUP BY m.id
        ORDER BY score DESC, m.id
        LIMIT ${params.add(limit)}`,
      params.values,
    );
    return rows.map((row) => ({ id: row.id, score: Number(row.score) }));
  }
}
