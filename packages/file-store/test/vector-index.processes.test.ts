import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { wordSumEmbedder } from '../src/embeddings/__fixtures__/word-sum-embedder';
import { loadUsearch } from '../src/embeddings/load-usearch';
import { decodeSnapshot } from '../src/fs/snapshot-file';
import { FileMemoryStore } from '../src/memory/file-memory-store';
import { silentLogger } from '@reverie/core';

// SPEC M4, B12, with real processes: a child churns a store with a vector index (saves, deletes,
// changes, the index built in a worker and written beside the vectors, closes and reopens) and is
// SIGKILLed at random points. Reopened, the index answers as comparing every vector does, and
// what it left on disk is whole.
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, '..');
const churn = join(here, '__fixtures__', 'vector-churn.ts');
const env = { ...process.env, TSX_TSCONFIG_PATH: resolve(packageDir, '..', '..', 'tsconfig.json') };

let dataPath: string;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-vector-kill-'));
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

/** Runs the churning child until it has printed `rounds` rounds, then kills it `delayMs` later. */
async function churnAndKill(seed: number, rounds: number, delayMs: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', churn, dataPath, String(seed)], {
    cwd: packageDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let seen = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    seen += (chunk.toString().match(/^round /gm) ?? []).length;
    if (seen >= rounds) setTimeout(() => child.kill('SIGKILL'), delayMs);
  });
  await new Promise<void>((done, fail) =>
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? done() : fail(new Error(`the child exited with ${code ?? signal}: ${stderr}`)),
    ),
  );
}

const queries = ['harbour lantern', 'violin glacier meadow', 'pepper', 'quartz falcon saddle', 'ember orchard'];
const answers = async (memory: FileMemoryStore) =>
  Promise.all(
    queries.map(async (text) => (await memory.search({ text, maxResults: 12 })).map((hit): [string, number] => [hit.entry.id, hit.score])),
  );

describe.skipIf(!loadUsearch(silentLogger))('the vector index across a SIGKILL', () => {
  it('answers as comparing every vector does after a kill at any point, and leaves whole files', async () => {
    const kills: Array<[number, number]> = [
      [1, 0],
      [2, 15],
      [3, 40],
      [4, 5],
      [5, 80],
    ];
    for (const [index, [rounds, delayMs]] of kills.entries()) {
      await churnAndKill(index + 1, rounds, delayMs);
      const table = join(dataPath, 'memory', '.embeddings', '.ann.bin');
      if (existsSync(table)) expect(decodeSnapshot(readFileSync(table)), `a whole table after kill ${index}`).toBeDefined();
      const exact = new FileMemoryStore({ dataPath, embedder: wordSumEmbedder(16), vectorSearch: 'exact' });
      await exact.flushEmbeddings();
      const expected = await answers(exact);
      const indexed = new FileMemoryStore({ dataPath, embedder: wordSumEmbedder(16), exactSearchBelow: 0 });
      // As opened (the graph the child left, with its stale keys), then brought up to date.
      await indexed.flushEmbeddings();
      expect(await answers(indexed)).toEqual(expected);
      await indexed.flushEmbeddings({ index: true });
      expect(await answers(indexed)).toEqual(expected);
      const live = new Set((await indexed.list()).map((entry) => entry.id));
      for (const hits of await answers(indexed)) for (const [id] of hits) expect(live.has(id)).toBe(true);
      await indexed.close();
      await exact.close();
      // What the index left at close: a table naming a graph file that is there.
      const decoded = decodeSnapshot(readFileSync(table))!;
      const graph = decoded.sections.get('graph');
      const named = graph?.kind === 'json' ? (JSON.parse(graph.text) as { file: string }).file : undefined;
      expect(readdirSync(join(dataPath, 'memory', '.embeddings'))).toContain(named);
    }
  }, 180_000);
});
