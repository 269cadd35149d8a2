import { type IEmbedder, type MemoryEntry, silentLogger } from '@reverie/core';
import { migratePostgres, type PostgresClient, PostgresMemoryStore } from '@reverie/postgres';
import { fmt, percentile, timed } from '../measure';

/** What `bench:vectors` prints for one PostgreSQL backend. */
export interface PostgresVectorFigures {
  loadPerSecond: number;
  /** Vectors per second of the first embedding: embedded, stored and put in the HNSW index. */
  ingestPerSecond: number;
  p50: number;
  p99: number;
  recallAt10: number;
  /** The HNSW index's size on disk (pg_relation_size), MiB. */
  indexMiB: number;
}

/**
 * `PostgresMemoryStore` with pgvector over `client`: the entries loaded with `saveMany`, the first
 * embedding (the store's background worker: vectors stored as `vector`, the HNSW index built as
 * they arrive), hybrid search p50/p99 over `queries`, and the HNSW side's recall@10 against an
 * exact ordering of the same table (index scans off).
 */
export async function postgresVectors(
  client: PostgresClient,
  entries: readonly MemoryEntry[],
  embedder: IEmbedder,
  queries: readonly string[],
  warmUps: number,
): Promise<PostgresVectorFigures> {
  await migratePostgres(client);
  const scope = `vectors-${embedder.modelId}`;
  const store = new PostgresMemoryStore({ client, scope, embedder, logger: silentLogger });
  try {
    const [, loadMs] = await timed(async () => {
      for (let first = 0; first < entries.length; first += 1000) await store.saveMany(entries.slice(first, first + 1000));
    });
    const [, ingestMs] = await timed(() => store.flushEmbeddings());
    const latencies: number[] = [];
    for (const [i, text] of queries.entries()) {
      const [, ms] = await timed(() => store.search({ text, maxResults: 8 }));
      if (i >= warmUps) latencies.push(ms);
    }
    latencies.sort((a, b) => a - b);
    const dims = (await embedder.embed(['probe']))[0]!.length;
    let found = 0;
    let asked = 0;
    for (const text of queries.slice(warmUps, warmUps + 100)) {
      const [vector] = await embedder.embed([text]);
      const literal = `[${vector!.join(',')}]`;
      const nearest = (rows: Array<{ id: string }>) => rows.map((row) => row.id);
      const sql = `SELECT id FROM reverie_memory_embeddings WHERE scope = $1 AND dims = ${dims} ORDER BY embedding::vector(${dims}) <=> $2::vector LIMIT 10`;
      const approximate = nearest(await client.query<{ id: string }>(sql, [scope, literal]));
      const exact = nearest(
        await client.transaction(async (tx) => {
          await tx.query("SELECT set_config('enable_indexscan', 'off', true)");
          return tx.query<{ id: string }>(sql, [scope, literal]);
        }),
      );
      const truth = new Set(exact);
      found += approximate.filter((id) => truth.has(id)).length;
      asked += exact.length;
    }
    const [size] = await client.query<{ bytes: string }>(`SELECT pg_relation_size('reverie_memory_embeddings_hnsw_${dims}') AS bytes`);
    return {
      loadPerSecond: entries.length / (loadMs / 1000),
      ingestPerSecond: entries.length / (ingestMs / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      recallAt10: found / Math.max(1, asked),
      indexMiB: Number(size?.bytes ?? 0) / 2 ** 20,
    };
  } finally {
    await store.close();
  }
}

export function describePostgres(label: string, figures: PostgresVectorFigures): string {
  return `${label}: loaded ${fmt(figures.loadPerSecond, 0)} entries/s; first embedding ${fmt(figures.ingestPerSecond, 0)} vectors/s (stored, HNSW built as they arrive); hybrid search p50 / p99 ${fmt(figures.p50)} / ${fmt(figures.p99)} ms; HNSW recall@10 against an exact ordering ${fmt(figures.recallAt10, 3)}; HNSW index ${fmt(figures.indexMiB, 0)} MiB`;
}
