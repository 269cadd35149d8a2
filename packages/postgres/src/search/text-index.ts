import { type Bm25Hit, type Thesaurus } from '@reverie/core';
import {
  BM25_B,
  BM25_K1,
  bm25Idf,
  expandWithSynonyms,
  type QueryWord,
  queryWords,
  rarestTerms,
  weighQueryTerms,
} from '@reverie/core/internal';
import type { PostgresClient } from '../client/postgres-client';
import { documentFrequencyDelta, type DocumentTerms, tsqueryText } from './search-terms';
import { SqlParams } from '../sql/sql-params';

/** The highest code point: `term || MAX_CHAR` bounds every longer term that begins with `term`. */
const MAX_CHAR = '\u{10FFFF}';

/**
 * Where a store family keeps what BM25 needs. `documents` has the columns `scope`, `key`,
 * `search_terms` (a tsvector, each term with positions 1…tf) and `term_count`; `terms` is
 * `(scope, term COLLATE "C", df)`; `stats` is `(scope, entries, total_length)`.
 */
export interface TextIndexTables {
  documents: string;
  /** The documents' key column (`name`, `key`, `id`). */
  key: string;
  terms: string;
  stats: string;
  /**
   * For a family whose documents have passages (SPEC M3: a memory entry's `lineage.passages`):
   * `(scope, <key>, n, search_terms, term_count)`, a row per passage. A document then ranks by
   * the best of its own row and its passages', as `Bm25Index` ranks it; its document frequencies
   * count each term once per document, in its text or a passage (`withPassageTerms`).
   */
  passages?: string;
}

/** An extra SQL condition on the documents (alias `d`), its parameters added to `params`. */
export type DocumentFilter = (params: SqlParams) => string;

/** The columns to select (from a documents table) for `storedTerms`: what a stored document counts in the index. */
export const STORED_TERMS_COLUMNS = 'tsvector_to_array(search_terms) AS lexemes, term_count';

/** A row with `STORED_TERMS_COLUMNS`. */
export type StoredTermsRow = { lexemes: string[]; term_count: number | string };

/**
 * What a stored document counted in the frequencies and counts, read back from its row (not
 * re-derived from its text, so a change of tokenizer between releases cannot skew them). Pure.
 */
export function storedTerms(row: StoredTermsRow): DocumentTerms {
  return { counts: new Map(row.lexemes.map((term) => [term, 1])), length: Number(row.term_count) };
}

export interface ScopeStats {
  entries: number;
  averageLength: number;
}

/**
 * BM25 over one scope's documents of a store family in PostgreSQL, scored as `Bm25Index` scores
 * (same terms, idf, prefix expansion and length normalisation, through the arithmetic of
 * `@reverie/core`): the GIN index on `(scope, search_terms)` finds the documents holding a query
 * term; the per-scope document frequencies and counts give the idf and the average length; the
 * term frequencies are read from the tsvector's positions.
 */
export class TextIndex {
  /** With `synonyms`, `search` also matches the synonyms of the query's words, as `Bm25Index` does with that option. */
  constructor(
    private readonly tables: TextIndexTables,
    private readonly scope: string,
    private readonly synonyms?: Thesaurus,
  ) {}

  /**
   * Locks the scope's counts row until the transaction ends (creating it on first use): the
   * writers of a scope that call this first take turns, so their reads of the current state
   * and the frequency updates never interleave (nor deadlock).
   */
  async lock(tx: PostgresClient): Promise<void> {
    await tx.query(
      `INSERT INTO ${this.tables.stats} AS s (scope, entries, total_length) VALUES ($1, 0, 0)
       ON CONFLICT (scope) DO UPDATE SET entries = s.entries`,
      [this.scope],
    );
  }

  /** Keeps the frequencies and counts in step with a document going from `before` to `after` (in the write's transaction). */
  async update(tx: PostgresClient, before: DocumentTerms | undefined, after: DocumentTerms | undefined): Promise<void> {
    await this.updateMany(tx, [{ before, after }]);
  }

  /** `update` for several distinct documents at once, in three statements at most, whatever their number. */
  async updateMany(
    tx: PostgresClient,
    changes: ReadonlyArray<{ before: DocumentTerms | undefined; after: DocumentTerms | undefined }>,
  ): Promise<void> {
    const delta = new Map<string, number>();
    let entries = 0;
    let length = 0;
    for (const { before, after } of changes) {
      for (const [term, change] of documentFrequencyDelta(before?.counts, after?.counts)) delta.set(term, (delta.get(term) ?? 0) + change);
      entries += (after ? 1 : 0) - (before ? 1 : 0);
      length += (after?.length ?? 0) - (before?.length ?? 0);
    }
    for (const [term, change] of delta) if (change === 0) delta.delete(term);
    await this.apply(tx, delta, entries, length);
  }

  /** Takes documents that were deleted out of the frequencies and counts (in the deleting transaction). */
  async remove(tx: PostgresClient, removed: readonly DocumentTerms[]): Promise<void> {
    const delta = new Map<string, number>();
    let length = 0;
    for (const document of removed) {
      for (const term of document.counts.keys()) delta.set(term, (delta.get(term) ?? 0) - 1);
      length += document.length;
    }
    await this.apply(tx, delta, -removed.length, -length);
  }

  /** Adds `delta` to the terms' document frequencies (dropping the terms left in none), and to the counts. */
  private async apply(tx: PostgresClient, delta: ReadonlyMap<string, number>, entries: number, length: number): Promise<void> {
    const gained = [...delta.keys()].filter((term) => delta.get(term)! > 0).sort();
    const lost = [...delta.keys()].filter((term) => delta.get(term)! < 0).sort();
    if (gained.length > 0) {
      await tx.query(
        `INSERT INTO ${this.tables.terms} AS t (scope, term, df) SELECT $1, term, n FROM unnest($2::text[], $3::int[]) AS d(term, n)
         ON CONFLICT (scope, term) DO UPDATE SET df = t.df + excluded.df`,
        [this.scope, gained, gained.map((term) => delta.get(term)!)],
      );
    }
    if (lost.length > 0) {
      const params = [this.scope, lost, lost.map((term) => -delta.get(term)!)];
      await tx.query(
        `DELETE FROM ${this.tables.terms} t USING unnest($2::text[], $3::int[]) AS d(term, n) WHERE t.scope = $1 AND t.term = d.term AND t.df <= d.n`,
        params,
      );
      await tx.query(
        `UPDATE ${this.tables.terms} t SET df = t.df - d.n FROM unnest($2::text[], $3::int[]) AS d(term, n) WHERE t.scope = $1 AND t.term = d.term`,
        params,
      );
    }
    if (entries === 0 && length === 0) return;
    await tx.query(
      `INSERT INTO ${this.tables.stats} AS s (scope, entries, total_length) VALUES ($1, $2, $3)
       ON CONFLICT (scope) DO UPDATE SET entries = s.entries + excluded.entries, total_length = s.total_length + excluded.total_length`,
      [this.scope, entries, length],
    );
  }

  /** The best `limit` documents for `text` that pass `filter`, best first (ties by key). */
  async search(client: PostgresClient, text: string, limit: number, filter?: DocumentFilter): Promise<Bm25Hit[]> {
    const words = this.synonyms ? expandWithSynonyms(queryWords(text), this.synonyms) : queryWords(text);
    const stats = words.length === 0 ? undefined : await this.stats(client);
    if (!stats) return [];
    const [hits] = await this.searchMany(client, [{ words }], stats, limit, filter);
    return hits!;
  }

  /**
   * The neighbours' query of each document (`NEIGHBOUR_QUERY` of `@reverie/core`): its `maxTerms`
   * rarest words, leaving out those in more than `maxDocumentShare` of the documents, as written
   * (no other forms) with prefix expansion; the hits are scored as `search` scores them, with the
   * scope's counts `stats`. Each document's own row is scored whatever `filter` says (the
   * neighbours' scores are relative to the best hit, usually the document itself). Three
   * statements however many documents: their words' frequencies, the vocabulary, the ranking.
   */
  async searchRarest(
    client: PostgresClient,
    documents: ReadonlyArray<{ key: string; text: string }>,
    limit: number,
    options: { maxTerms: number; maxDocumentShare: number; stats: ScopeStats | undefined; filter?: DocumentFilter },
  ): Promise<Map<string, Bm25Hit[]>> {
    const { stats } = options;
    const wordsOf = documents.map((document) => queryWords(document.text, 'exact'));
    const allWords = [...new Set(wordsOf.flat().map(({ word }) => word))];
    if (allWords.length === 0 || !stats) return new Map(documents.map((document) => [document.key, []]));
    const known = await client.query<{ term: string; df: number }>(
      `SELECT term, df FROM ${this.tables.terms} WHERE scope = $1 AND term = ANY($2::text[])`,
      [this.scope, allWords],
    );
    const df = new Map(known.map((row) => [row.term, Number(row.df)]));
    const queries = documents.map((document, i) => {
      const words = wordsOf[i]!;
      const candidates = words.filter(({ word }) => df.has(word)).map(({ word }) => ({ term: word, df: df.get(word)! }));
      const rarest = new Set(rarestTerms(candidates, options.maxTerms, stats.entries, options.maxDocumentShare));
      return { words: words.filter(({ word }) => rarest.has(word)), own: document.key };
    });
    const hits = await this.searchMany(client, queries, stats, limit, options.filter);
    return new Map(documents.map((document, i) => [document.key, hits[i]!]));
  }

  /** The scope's document count and average length (undefined for an empty scope), as `searchRarest` takes them. */
  async stats(client: PostgresClient): Promise<ScopeStats | undefined> {
    const [row] = await client.query<{ entries: string | number; total_length: string | number }>(
      `SELECT entries, total_length FROM ${this.tables.stats} WHERE scope = $1`,
      [this.scope],
    );
    const entries = Number(row?.entries ?? 0);
    if (entries <= 0) return undefined;
    return { entries, averageLength: Number(row!.total_length) / entries || 1 };
  }

  /**
   * Ranks each query's words (and their forms and prefix expansions, weighed by
   * `weighQueryTerms`) in two statements however many queries: the vocabulary, the ranking.
   */
  private async searchMany(
    client: PostgresClient,
    queries: ReadonlyArray<{ words: readonly QueryWord[]; own?: string }>,
    stats: ScopeStats,
    limit: number,
    filter?: DocumentFilter,
  ): Promise<Bm25Hit[][]> {
    const termsOf = queries.map(({ words }) => [...new Set(words.flatMap(({ word, forms }) => [word, ...forms]))]);
    const found = await this.vocabulary(client, [...new Set(termsOf.flat())]);
    const ranked = queries.map(({ words, own }, i) => {
      // The query's vocabulary: what its own terms found, as one query of them would have found it.
      const vocabulary = [
        ...new Map(termsOf[i]!.flatMap((term) => found.get(term) ?? []).map((known) => [known.term, known])).values(),
      ].sort(byTerm);
      const expansions = (word: string) =>
        vocabulary.filter((known) => known.term !== word && known.term.startsWith(word)).map((known) => known.term);
      const weights = weighQueryTerms(words, (term) => vocabulary.some((known) => known.term === term), expansions);
      const df = new Map(vocabulary.map((known) => [known.term, known.df]));
      const factors = new Map([...weights].map(([term, weight]) => [term, weight * bm25Idf(stats.entries, df.get(term)!)]));
      return { factors, ...(own === undefined ? {} : { own }) };
    });
    return this.rank(client, ranked, stats, limit, filter);
  }

  /**
   * For each query term, the vocabulary's terms that equal it and the first 25 terms
   * (alphabetically) that begin with it: its exact match and up to 24 expansions. One statement.
   */
  private async vocabulary(
    client: PostgresClient,
    queryTerms: readonly string[],
  ): Promise<Map<string, Array<{ term: string; df: number }>>> {
    const found = new Map<string, Array<{ term: string; df: number }>>();
    if (queryTerms.length === 0) return found;
    const rows = await client.query<{ query: string; term: string; df: number }>(
      `SELECT q.term AS query, found.term, found.df
         FROM unnest($2::text[]) AS q(term)
         CROSS JOIN LATERAL (
           SELECT t.term, t.df FROM ${this.tables.terms} t
            WHERE t.scope = $1 AND t.term >= q.term AND t.term < q.term || $3
            ORDER BY t.term LIMIT 25
         ) found`,
      [this.scope, queryTerms, MAX_CHAR],
    );
    for (const row of rows) {
      const terms = found.get(row.query) ?? [];
      terms.push({ term: row.term, df: Number(row.df) });
      found.set(row.query, terms);
    }
    return found;
  }

  /**
   * The best `limit` documents of each query (its terms' `factors`: weight × idf) that pass
   * `filter` — or are the query's `own` document — best first, ties by key. One statement, which
   * reads each document holding a term of any query once (the GIN index on `(scope,
   * search_terms)` finds them), scores it for every query that shares a term with it (adding the
   * terms' parts in term order, so a score does not depend on the other queries or the plan), and
   * keeps each query's best `limit` with a window function.
   */
  private async rank(
    client: PostgresClient,
    queries: ReadonlyArray<{ factors: ReadonlyMap<string, number>; own?: string }>,
    stats: ScopeStats,
    limit: number,
    filter?: DocumentFilter,
  ): Promise<Bm25Hit[][]> {
    const hits = queries.map((): Bm25Hit[] => []);
    const asked = [...queries.keys()].filter((n) => queries[n]!.factors.size > 0);
    if (asked.length === 0) return hits;
    const params = new SqlParams();
    const scope = params.add(this.scope);
    const weights = asked.flatMap((n) => [...queries[n]!.factors].map(([term, factor]) => ({ n, term, factor })));
    const weightNumbers = params.add(weights.map((weight) => weight.n));
    const weightTerms = params.add(weights.map((weight) => weight.term));
    const weightFactors = params.add(weights.map((weight) => weight.factor));
    const queryNumbers = params.add(asked);
    const owns = params.add(asked.map((n) => queries[n]!.own ?? null));
    const anyTerm = params.add(tsqueryText(new Set(weights.map((weight) => weight.term))));
    const average = params.add(stats.averageLength);
    const condition = filter ? filter(params) : 'TRUE';
    const key = `d.${this.tables.key}`;
    const score = (alias: string) =>
      `sum(w.factor * (u.tf * ${BM25_K1 + 1}) / (u.tf + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * ${alias}.term_count / ${average}::float8)) ORDER BY u.lexeme)`;
    const terms = (alias: string) =>
      `CROSS JOIN LATERAL (SELECT lexeme, coalesce(array_length(positions, 1), 1) AS tf FROM unnest(${alias}.search_terms)) u
           JOIN unnest(${weightNumbers}::int[], ${weightTerms}::text[], ${weightFactors}::float8[]) AS w(n, term, factor) ON w.term = u.lexeme
           JOIN unnest(${queryNumbers}::int[], ${owns}::text[]) AS q(n, own) ON q.n = w.n`;
    const passages = this.tables.passages;
    // With passages: each document's own row and each of its passages scored apart, the best kept.
    const ranking = passages
      ? `parts AS (
         SELECT ${key} AS id, 0 AS part, d.search_terms, d.term_count FROM ${this.tables.documents} d
          WHERE d.scope = ${scope} AND d.search_terms @@ ${anyTerm}::tsquery
         UNION ALL
         SELECT p.${this.tables.key}, p.n + 1, p.search_terms, p.term_count FROM ${passages} p
          WHERE p.scope = ${scope} AND p.search_terms @@ ${anyTerm}::tsquery
       ), scored AS (
         SELECT w.n, x.id, ${score('x')} AS score
           FROM parts x
           ${terms('x')}
           JOIN ${this.tables.documents} d ON d.scope = ${scope} AND ${key} = x.id
          WHERE ${key} = q.own OR ${condition}
          GROUP BY w.n, x.id, x.part
       ), hits AS (
         SELECT n, id, max(score) AS score FROM scored GROUP BY n, id
       )`
      : `hits AS (
         SELECT w.n, ${key} AS id, ${score('d')} AS score
           FROM ${this.tables.documents} d
           ${terms('d')}
          WHERE d.scope = ${scope} AND d.search_terms @@ ${anyTerm}::tsquery AND (${key} = q.own OR ${condition})
          GROUP BY w.n, ${key}
       )`;
    const rows = await client.query<{ n: number; id: string; score: number }>(
      `WITH ${ranking}
       SELECT n, id, score
         FROM (SELECT n, id, score, row_number() OVER (PARTITION BY n ORDER BY score DESC, id) AS place FROM hits) ranked
        WHERE place <= ${params.add(limit)}
        ORDER BY n, place`,
      params.values,
    );
    for (const row of rows) hits[Number(row.n)]!.push({ id: row.id, score: Number(row.score) });
    return hits;
  }
}

function byTerm(a: { term: string }, b: { term: string }): number {
  return a.term < b.term ? -1 : a.term > b.term ? 1 : 0;
}
