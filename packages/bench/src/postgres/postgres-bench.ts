// pnpm bench:postgres — the PostgreSQL stores at scale (SPEC B6), side by side with the
// file store in the same run.
//
// A real PostgreSQL 15+ server: REVERIE_BENCH_POSTGRES_URL (a role that may create databases; the
// bench works in a database of its own and drops it), else a throwaway cluster started the way
// the tests start theirs (packages/postgres/test/throwaway-cluster.ts), here with PostgreSQL's
// durability on (fsync, synchronous commit) as a production server has it, and shared_buffers 1GB.
//
// The database is filled in two steps with BENCH_PG_TOTAL / 10, then BENCH_PG_TOTAL synthetic
// natural-language entries (synthetic-memory.ts; default 1,000,000), BENCH_PG_SCOPE_SIZE per scope
// (default 1,000, so 1,000 scopes), through PostgresMemoryStore.saveMany (what saving one by one
// writes: rows, term counts, change feed). The file store holds BENCH_PG_TOTAL / 10 entries in
// scopes of the same size, written as files (memory-fixture.ts). Measured:
//   - search p50 / p99 within one scope (the same scope and queries on both backends, and on
//     PostgreSQL at both totals);
//   - saves per second from BENCH_PG_WRITERS processes (8) for BENCH_PG_WRITE_SECONDS (10), each
//     on a scope of its own, then all on one scope;
//   - a dream cycle's host time (wall − the scripted model's own time) for one scope: the initial
//     consolidation cycle over a planted memory of BENCH_PG_SCOPE_SIZE entries (as bench:dream
//     plants it, with the oracle model), in a fresh scope at the small total and again at the large
//     one (it should stay flat), best of BENCH_PG_CYCLES (2) scopes each, and on the file store;
//     on PostgreSQL with the number of statements each cycle sent (round trips, which load does not blur).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ILongTermMemory, ManualClock, type MemoryDraft, silentLogger } from '@reverie/core';
import { DreamEngine, MemoryConsolidationPass } from '@reverie/dream';
import { FileDreamStateStore, FileMemoryStore } from '@reverie/file-store';
import {
  migratePostgres,
  type PostgresClient,
  postgresClientFromConnectionString,
  PostgresDreamStateStore,
  PostgresMemoryStore,
} from '@reverie/postgres';
import { findRealServer } from '../../../postgres/test/throwaway-cluster';
import { CountingClient } from '../../../postgres/test/counting-client';
import { OracleModel } from '../dream/oracle-model';
import { PlantedMemory } from '../dream/planted-memory';
import { reportFigure } from '../figures';
import { fmt, percentile, timed } from '../measure';
import { writeMemoryFixture } from '../memory-fixture';
import { syntheticEntry, syntheticQuery } from '../synthetic-memory';
import type { DreamStateStore } from '@reverie/dream-state';

const positive = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer (got ${process.env[name]})`);
  return value;
};
const TOTAL = positive('BENCH_PG_TOTAL', 1_000_000);
const SCOPE_SIZE = positive('BENCH_PG_SCOPE_SIZE', 1_000);
const WRITERS = positive('BENCH_PG_WRITERS', 8);
const WRITE_SECONDS = positive('BENCH_PG_WRITE_SECONDS', 10);
const CYCLES = positive('BENCH_PG_CYCLES', 2);
/** Scopes loaded side by side (each its own transaction per batch). */
const LOAD_CONCURRENCY = positive('BENCH_PG_LOAD_CONCURRENCY', 3);
const SMALL = Math.round(TOTAL / 10);
if (TOTAL % (10 * SCOPE_SIZE) !== 0 || SMALL < SCOPE_SIZE * (WRITERS + 2)) {
  throw new Error(
    `BENCH_PG_TOTAL / 10 must be a whole number of scopes of BENCH_PG_SCOPE_SIZE entries, at least ${WRITERS + 2} of them (one searched, one per writer, one shared)`,
  );
}
const QUERIES = 1000;
const WARM_UP = 20;
const SEED = 20261101;
const now = new Date('2026-11-01T00:00:00Z');
const DAY_MS = 86_400_000;

const int = (value: number) => Math.round(value).toLocaleString('en');
const scopeName = (index: number) => `bench:${String(index).padStart(5, '0')}`;
/** The scope searched on every backend and at every total, and the scopes the writers use. */
const SEARCHED = 0;
const writerScope = (writer: number) => 1 + writer;
const SHARED_WRITE_SCOPE = 1 + WRITERS;

function drafts(scope: number): MemoryDraft[] {
  return Array.from({ length: SCOPE_SIZE }, (_, j) => syntheticEntry(scope * SCOPE_SIZE + j, now));
}

/** Fills scopes [from, to) of the database, LOAD_CONCURRENCY at a time; returns entries per second. */
async function loadPostgres(client: PostgresClient, from: number, to: number): Promise<number> {
  let next = from;
  const [, ms] = await timed(() =>
    Promise.all(
      Array.from({ length: LOAD_CONCURRENCY }, async () => {
        for (let scope = next++; scope < to; scope = next++) {
          const store = new PostgresMemoryStore({ client, scope: scopeName(scope) });
          await store.saveMany(drafts(scope));
          await store.close();
          if ((scope + 1) % 100 === 0) process.stdout.write(`  ${int((scope + 1) * SCOPE_SIZE)} entries\r`);
        }
      }),
    ),
  );
  return ((to - from) * SCOPE_SIZE) / (ms / 1000);
}

interface Latencies {
  p50: number;
  p99: number;
  results: number;
}

async function searchLatencies(store: ILongTermMemory): Promise<Latencies> {
  for (let q = 0; q < WARM_UP; q++) await store.search({ text: syntheticQuery(QUERIES + q) });
  const times: number[] = [];
  let results = 0;
  for (let q = 0; q < QUERIES; q++) {
    const [hits, ms] = await timed(() => store.search({ text: syntheticQuery(q) }));
    times.push(ms);
    results += hits.length;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), results: results / QUERIES };
}

interface CycleStore {
  memory: ILongTermMemory;
  state: DreamStateStore;
  load(drafts: MemoryDraft[]): Promise<unknown>;
  /** The statements sent to PostgreSQL so far (PostgreSQL only). */
  statements?: () => number;
}

interface CycleCost {
  hostMs: number;
  /** Statements the cycle sent to PostgreSQL (BEGIN and COMMIT included). */
  statements?: number;
}

/** The host time of one initial consolidation cycle over a fresh planted memory of SCOPE_SIZE entries (and its statements). */
async function cycleCost(open: (clock: ManualClock) => CycleStore): Promise<CycleCost> {
  const planted = PlantedMemory.build(SCOPE_SIZE, SEED, now);
  const clock = new ManualClock(now);
  const { memory, state, load, statements } = open(clock);
  await load(planted.entries.map((entry) => entry.draft));
  clock.advance(DAY_MS);
  const before = statements?.();
  const oracle = new OracleModel((content) => planted.factOf(content));
  const directives = mkdtempSync(join(tmpdir(), 'reverie-pg-bench-directives-'));
  try {
    const engine = new DreamEngine({ dataPath: directives, clock, state, logger: silentLogger, memory, model: oracle.model }, [
      new MemoryConsolidationPass({ maxChangedPerRun: SCOPE_SIZE }),
    ]);
    const [report, wallMs] = await timed(() => engine.run({ trigger: 'bench' }));
    const outcome = report.passes[0];
    if (outcome?.status !== 'ok') throw new Error(`the consolidation cycle did not succeed: ${JSON.stringify(outcome)}`);
    const hostMs = wallMs - oracle.calls.reduce((sum, call) => sum + call.ms, 0);
    return { hostMs, ...(statements && before !== undefined ? { statements: statements() - before } : {}) };
  } finally {
    await memory.close();
    rmSync(directives, { recursive: true, force: true });
  }
}

async function bestCycle(label: string, open: Parameters<typeof cycleCost>[0]): Promise<number> {
  const runs: CycleCost[] = [];
  for (let run = 0; run < CYCLES; run++) runs.push(await cycleCost(open));
  const described = runs.map((run) => `${int(run.hostMs)} ms${run.statements === undefined ? '' : ` (${int(run.statements)} statements)`}`);
  console.log(`  ${label}: ${described.join(', ')}`);
  return Math.min(...runs.map((run) => run.hostMs));
}

function postgresCycle(client: PostgresClient, scope: string) {
  return (clock: ManualClock): CycleStore => {
    const counting = new CountingClient(client);
    const memory = new PostgresMemoryStore({ client: counting, scope, clock });
    return {
      memory,
      state: new PostgresDreamStateStore({ client: counting, scope, clock }),
      load: (batch: MemoryDraft[]) => memory.saveMany(batch),
      statements: () => counting.statements,
    };
  };
}

function fileCycle(dataPath: string) {
  return (clock: ManualClock) => {
    const memory = new FileMemoryStore({ dataPath, clock });
    return {
      memory,
      state: new FileDreamStateStore({ dataPath, clock }),
      load: async (batch: MemoryDraft[]) => {
        for (const draft of batch) await memory.save(draft);
      },
    };
  };
}

/** Saves per second of WRITERS processes, each given its arguments, started together. */
async function writesPerSecond(argsOf: (writer: number) => string[]): Promise<number> {
  const script = fileURLToPath(new URL('./write-child.ts', import.meta.url));
  const children: ChildProcess[] = [];
  const outputs = Array.from({ length: WRITERS }, (_, writer) => {
    const child = spawn(process.execPath, [...process.execArgv, script, ...argsOf(writer), String(WRITE_SECONDS), String(writer + 1)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.push(child);
    let output = '';
    const ready = new Promise<void>((resolve) =>
      child.stdout!.on('data', (chunk: Buffer) => ((output += chunk.toString()), output.includes('ready') && resolve())),
    );
    const done = new Promise<{ saves: number; ms: number }>((resolve, reject) =>
      child.on('close', (code) =>
        code === 0 ? resolve(JSON.parse(output.trim().split('\n').at(-1)!)) : reject(new Error(`a writer exited with ${code}`)),
      ),
    );
    return { ready, done };
  });
  await Promise.all(outputs.map((output) => output.ready));
  for (const child of children) child.stdin!.end('go\n');
  const results = await Promise.all(outputs.map((output) => output.done));
  return results.reduce((sum, result) => sum + result.saves / (result.ms / 1000), 0);
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

console.log(`# bench:postgres — node ${process.version}, ${new Date().toISOString()}`);
console.log(
  `${int(TOTAL)} entries in ${int(TOTAL / SCOPE_SIZE)} scopes of ${int(SCOPE_SIZE)} on PostgreSQL, against ${int(SMALL)} on the file store; ` +
    `${WRITERS} writer processes for ${WRITE_SECONDS} s; best of ${CYCLES} cycles. Load average at the start: ${loadAverage()}`,
);
const server = await findRealServer('REVERIE_BENCH_POSTGRES_URL', { durable: true, settings: { shared_buffers: '1GB' } });
if (!server.url) throw new Error(`bench:postgres needs a PostgreSQL 15+ server: ${server.reason}`);
const database = `reverie_bench_${process.pid}`;
const admin = postgresClientFromConnectionString(server.url, { max: 1 });
const files = mkdtempSync(join(tmpdir(), 'reverie-pg-bench-files-'));
const fileScope = (index: number) => join(files, 'scopes', scopeName(index).replace(':', '-'));
try {
  await admin.query(`CREATE DATABASE ${database}`);
  const url = withDatabase(server.url, database);
  const client = postgresClientFromConnectionString(url, { max: LOAD_CONCURRENCY + 2 });
  try {
    const [version] = await client.query<{ server_version: string }>('SHOW server_version');
    console.log(
      `PostgreSQL ${version!.server_version} at ${server.url.replace(/\/\/[^@]*@/, '//')}${process.env.REVERIE_BENCH_POSTGRES_URL ? '' : ' (a throwaway cluster)'}`,
    );
    await migratePostgres(client);

    // The small total: PostgreSQL, and the file store at the same size.
    console.log(`\nloading ${int(SMALL)} entries into PostgreSQL (saveMany, ${LOAD_CONCURRENCY} scopes at a time)…`);
    const smallRate = await loadPostgres(client, 0, SMALL / SCOPE_SIZE);
    console.log(`  ${int(smallRate)} entries/s`);
    const [, fileMs] = await timed(async () => {
      for (let scope = 0; scope < SMALL / SCOPE_SIZE; scope++) writeMemoryFixture(fileScope(scope), SCOPE_SIZE, now, scope * SCOPE_SIZE);
    });
    console.log(`file store: ${int(SMALL)} entries written as files in ${int(fileMs)} ms`);

    const searchAt = async (label: string, store: ILongTermMemory) => {
      const latencies = await searchLatencies(store);
      await store.close();
      console.log(`  ${label}: p50 ${fmt(latencies.p50)} ms, p99 ${fmt(latencies.p99)} ms (avg ${fmt(latencies.results, 1)} results)`);
      return latencies;
    };
    console.log(`\nsearch within one scope (${int(SCOPE_SIZE)} entries), ${QUERIES} queries after ${WARM_UP} warm-ups:`);
    const fileSearch = await searchAt(`file store, ${int(SMALL)} entries`, new FileMemoryStore({ dataPath: fileScope(SEARCHED) }));
    const smallSearch = await searchAt(
      `PostgreSQL, ${int(SMALL)} entries`,
      new PostgresMemoryStore({ client, scope: scopeName(SEARCHED) }),
    );

    console.log(`\ndream cycle host time, one scope (initial consolidation over ${int(SCOPE_SIZE)} planted entries, oracle model):`);
    const fileCycleMs = await bestCycle(`file store, ${int(SMALL)} entries`, (clock) =>
      fileCycle(mkdtempSync(join(files, 'dream-')))(clock),
    );
    let dreamScopes = 0;
    const smallCycleMs = await bestCycle(`PostgreSQL, ${int(SMALL)} entries`, (clock) =>
      postgresCycle(client, `bench:dream-${(dreamScopes += 1)}`)(clock),
    );

    // The large total.
    console.log(`\nloading up to ${int(TOTAL)} entries…`);
    const largeRate = await loadPostgres(client, SMALL / SCOPE_SIZE, TOTAL / SCOPE_SIZE);
    console.log(`  ${int(largeRate)} entries/s`);
    await client.query('VACUUM ANALYZE');
    const [size] = await client.query<{ size: string }>('SELECT pg_size_pretty(pg_database_size(current_database())) AS size');
    console.log(`database size: ${size!.size}`);

    console.log(`\nsearch within one scope (${int(SCOPE_SIZE)} entries), ${QUERIES} queries after ${WARM_UP} warm-ups:`);
    const largeSearch = await searchAt(
      `PostgreSQL, ${int(TOTAL)} entries`,
      new PostgresMemoryStore({ client, scope: scopeName(SEARCHED) }),
    );

    console.log(`\ndream cycle host time, one scope:`);
    const largeCycleMs = await bestCycle(`PostgreSQL, ${int(TOTAL)} entries`, (clock) =>
      postgresCycle(client, `bench:dream-${(dreamScopes += 1)}`)(clock),
    );

    console.log(`\nsaves per second, ${WRITERS} processes, ${WRITE_SECONDS} s (load average ${loadAverage()}):`);
    const writes = {
      postgresOwn: await writesPerSecond((writer) => ['postgres', url, scopeName(writerScope(writer))]),
      postgresShared: await writesPerSecond(() => ['postgres', url, scopeName(SHARED_WRITE_SCOPE)]),
      fileOwn: await writesPerSecond((writer) => ['file', fileScope(writerScope(writer)), '-']),
      fileShared: await writesPerSecond(() => ['file', fileScope(SHARED_WRITE_SCOPE), '-']),
    };
    console.log(
      `  PostgreSQL (${int(TOTAL)} entries): ${int(writes.postgresOwn)}/s each on its own scope, ${int(writes.postgresShared)}/s all on one scope`,
    );
    console.log(
      `  file store (${int(SMALL)} entries): ${int(writes.fileOwn)}/s each on its own scope, ${int(writes.fileShared)}/s all on one scope`,
    );

    console.log(`\n| | PostgreSQL, ${int(TOTAL)} entries | PostgreSQL, ${int(SMALL)} entries | file store, ${int(SMALL)} entries |`);
    console.log('| --- | --- | --- | --- |');
    console.log(
      `| search p50 / p99 in one scope | ${fmt(largeSearch.p50)} / ${fmt(largeSearch.p99)} ms | ${fmt(smallSearch.p50)} / ${fmt(smallSearch.p99)} ms | ${fmt(fileSearch.p50)} / ${fmt(fileSearch.p99)} ms |`,
    );
    console.log(`| saves/s, ${WRITERS} processes on their own scopes | ${int(writes.postgresOwn)} | | ${int(writes.fileOwn)} |`);
    console.log(`| saves/s, ${WRITERS} processes on one scope | ${int(writes.postgresShared)} | | ${int(writes.fileShared)} |`);
    console.log(`| dream cycle host time, one scope | ${int(largeCycleMs)} ms | ${int(smallCycleMs)} ms | ${int(fileCycleMs)} ms |`);
    console.log(
      `\ncycle host time at ${int(TOTAL)} / at ${int(SMALL)}: ${fmt(largeCycleMs / smallCycleMs)}× (flat is 1×); load average at the end: ${loadAverage()}`,
    );

    const at = int(TOTAL);
    const fileBaseline = (value: number) => ({ label: `the file store, ${int(SMALL)} entries`, value });
    reportFigure({
      id: `postgres.searchP50.${TOTAL}`,
      label: `PostgreSQL search p50 in one scope (${at} entries)`,
      value: largeSearch.p50,
      unit: 'ms',
      baseline: fileBaseline(fileSearch.p50),
    });
    reportFigure({
      id: `postgres.searchP99.${TOTAL}`,
      label: `PostgreSQL search p99 in one scope (${at} entries)`,
      value: largeSearch.p99,
      unit: 'ms',
      baseline: fileBaseline(fileSearch.p99),
    });
    reportFigure({
      id: `postgres.writesOwnScopes.${TOTAL}`,
      label: `PostgreSQL saves/s, ${WRITERS} processes on their own scopes (${at} entries)`,
      value: writes.postgresOwn,
      unit: 'saves/s',
      baseline: fileBaseline(writes.fileOwn),
    });
    reportFigure({
      id: `postgres.writesOneScope.${TOTAL}`,
      label: `PostgreSQL saves/s, ${WRITERS} processes on one scope (${at} entries)`,
      value: writes.postgresShared,
      unit: 'saves/s',
      baseline: fileBaseline(writes.fileShared),
    });
    reportFigure({
      id: `postgres.cycleHost.${TOTAL}`,
      label: `PostgreSQL dream cycle host time, one scope (${at} entries)`,
      value: largeCycleMs,
      unit: 'ms',
      baseline: { label: `the same at ${int(SMALL)} entries`, value: smallCycleMs },
    });
    reportFigure({
      id: `postgres.cycleHostVsFile.${SMALL}`,
      label: `PostgreSQL dream cycle host time, one scope (${int(SMALL)} entries)`,
      value: smallCycleMs,
      unit: 'ms',
      baseline: fileBaseline(fileCycleMs),
    });
  } finally {
    await client.close();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
} finally {
  await admin.close();
  server.stop();
  rmSync(files, { recursive: true, force: true });
}
