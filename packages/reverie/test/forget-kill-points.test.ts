import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import type { MemoryEntry } from '@reverie/core';
import { postgresClientFromPglite } from '@reverie/postgres';
import { createReverie, FORGOTTEN_CATEGORY, type Reverie } from 'reverie';
import { bundleDreamChild } from './__fixtures__/child-bundle';
import { filesHolding } from './__fixtures__/files-holding';

// SPEC B2, B14, B15, process level: a real `node` child forgets a subject (or imports a file) and
// is SIGKILLed at each fault point of the dream engine's write path that a clean run reaches. A
// fresh Reverie then recovers: the forget or import is whole (every entry gone and the record
// saved, or every entry imported) or was never started, never half done; unrelated entries are as
// they were; and undo brings back the state before it.
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, '..');

/** The memories every run starts from, on files and on PostgreSQL alike. */
const SEEDED = [
  'Alice keeps a quokka',
  'The quokka is called Zephyrine',
  'The user prefers tea',
  'Deploys go out on Tuesdays',
  'Quokkas eat leaves',
];

let root: string;
let bundleDir: string;
let child: string;
let pristine: string;
let exportFile: string;
let before: Array<Omit<MemoryEntry, 'updatedAt'>>;

function runChild(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const proc = spawn(process.execPath, [child, ...args], { cwd: packageDir, env: { ...process.env, ...env } });
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.on('error', reject);
    proc.on('exit', (code, signal) => resolveRun({ code, signal, stderr }));
  });
}

const openAt = (dataPath: string): Reverie => createReverie({ dataPath, logger: 'silent' }).withMemory().build();
/** The entries outside `_system/` by id, without `updatedAt` (which the store stamps on every write, an undo's too). */
const userEntries = async (reverie: Reverie) =>
  (await reverie.memory!.list())
    .filter((entry) => !entry.category.startsWith('_system'))
    .sort((a, b) => a.id.localeCompare(b.id))
    .map(({ updatedAt: _updatedAt, ...entry }) => entry);

/** Every fault point (as `name#occurrence`) a clean run of `args` reaches, in order. */
async function tracePoints(args: (dataPath: string) => string[], from = pristine): Promise<string[]> {
  const traced = join(root, `traced-${Math.random().toString(36).slice(2)}`);
  cpSync(from, traced, { recursive: true });
  const trace = join(root, `${Math.random().toString(36).slice(2)}.trace`);
  const clean = await runChild(args(traced), { REVERIE_FAULT_TRACE: trace });
  expect(clean.code, clean.stderr).toBe(0);
  const seen = new Map<string, number>();
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((name) => {
      const count = (seen.get(name) ?? 0) + 1;
      seen.set(name, count);
      return `${name}#${count}`;
    });
}

/** Kills a run of `args` at `point` over a copy of the pristine directory, recovers it, and hands the reopened instance to `check`. */
async function killAndRecover(
  point: string,
  args: (dataPath: string) => string[],
  check: (reverie: Reverie, dataPath: string) => Promise<void>,
  from = pristine,
): Promise<void> {
  const dataPath = join(root, `trial-${point.replace(/\W/g, '-')}-${args('x')[0]}`);
  cpSync(from, dataPath, { recursive: true });
  const killed = await runChild(args(dataPath), { REVERIE_FAULT_KILL_AT: point });
  expect(killed.signal, killed.stderr).toBe('SIGKILL');
  const reverie = openAt(dataPath);
  try {
    await reverie.dreams.recover();
    await check(reverie, dataPath);
  } finally {
    await reverie.close();
  }
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'reverie-forget-kill-'));
  // Inside the package, so what the bundle leaves out (PGlite) resolves from its node_modules.
  mkdirSync(join(packageDir, 'node_modules', '.cache'), { recursive: true });
  bundleDir = mkdtempSync(join(packageDir, 'node_modules', '.cache', 'forget-child-'));
  child = await bundleDreamChild(bundleDir, 'forget-child.ts', ['@electric-sql/pglite']);
  pristine = join(root, 'pristine');
  const reverie = openAt(pristine);
  for (const content of SEEDED) await reverie.memory!.save({ content });
  before = await userEntries(reverie);
  const source = openAt(join(root, 'source'));
  for (const content of ['Imported one', 'Imported two', 'Imported three']) await source.memory!.save({ content });
  let text = '';
  for await (const line of source.export()) text += line;
  exportFile = join(root, 'memory.jsonl');
  writeFileSync(exportFile, text);
  await source.close();
  await reverie.close();
}, 120_000);
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

describe('a forget killed at any point', () => {
  const forget = (dataPath: string) => ['forget', dataPath, 'quokka'];

  it('is whole after recovery, or was never started, and undo brings everything back', async () => {
    const points = await tracePoints(forget);
    expect(points.length).toBeGreaterThan(5);
    const unrelated = before.filter((entry) => !entry.content.toLowerCase().includes('quokka'));
    for (const point of points) {
      await killAndRecover(point, forget, async (reverie) => {
        const left = await userEntries(reverie);
        const records = await reverie.memory!.list({ category: FORGOTTEN_CATEGORY });
        const started = records.length > 0 || left.length < before.length;
        if (started) {
          expect(left, point).toEqual(unrelated);
          expect(records, point).toHaveLength(1);
          const [run] = await reverie.dreams.listRuns();
          await reverie.dreams.undo(run!.runId);
        }
        expect(await userEntries(reverie), point).toEqual(before);
        expect(await reverie.memory!.list({ category: FORGOTTEN_CATEGORY }), point).toEqual([]);
      });
    }
  }, 300_000);
});

describe('an import killed at any point', () => {
  const importing = (dataPath: string) => ['import', dataPath, exportFile];

  it('is whole after recovery, or was never started, and undo takes it back', async () => {
    const points = await tracePoints(importing);
    for (const point of points) {
      await killAndRecover(point, importing, async (reverie) => {
        const entries = await userEntries(reverie);
        if (entries.length > before.length) {
          expect(
            entries
              .map((entry) => entry.content)
              .filter((content) => content.startsWith('Imported'))
              .sort(),
            point,
          ).toEqual(['Imported one', 'Imported three', 'Imported two']);
          const [run] = await reverie.dreams.listRuns();
          await reverie.dreams.undo(run!.runId);
        }
        expect(await userEntries(reverie), point).toEqual(before);
      });
    }
  }, 300_000);
});

describe('an erasure killed at any point', () => {
  const erase = (dataPath: string) => ['erase', dataPath, 'quokka'];
  const erased = ['Alice keeps a quokka', 'The quokka is called Zephyrine', 'Quokkas eat leaves'];
  let withCopies: string;

  beforeAll(async () => {
    // The pristine memory, plus copies elsewhere: a soft-forgotten entry holding one of the texts (archived by its run) and conversation turns.
    withCopies = join(root, 'pristine-copies');
    cpSync(pristine, withCopies, { recursive: true });
    const reverie = createReverie({ dataPath: withCopies, logger: 'silent' }).withMemory().withConversationLog().build();
    const copy = await reverie.memory!.save({ content: 'Someone said: the QUOKKA is called Zephyrine' });
    await reverie.memory!.forget({ ids: [copy.id] });
    await reverie.conversationLog!.append({ sessionId: 's', role: 'user', content: 'The quokka is called Zephyrine' });
    await reverie.conversationLog!.append({ sessionId: 's', role: 'user', content: 'The user prefers tea' });
    await reverie.close();
  }, 60_000);

  it('is whole after recovery, or was never started: no file holds the text, unrelated entries are untouched', async () => {
    const points = await tracePoints(erase, withCopies);
    expect(points.filter((point) => point.startsWith('erase.')).length).toBeGreaterThan(5);
    expect(points).toEqual(
      expect.arrayContaining(['erase.intent-saved#1', 'erase.file#2', 'erase.deleting#3', 'erase.snapshots-removed#1']),
    );
    const unrelated = before.filter((entry) => !entry.content.toLowerCase().includes('quokka'));
    for (const point of points) {
      await killAndRecover(
        point,
        erase,
        async (reverie, dataPath) => {
          const left = await userEntries(reverie);
          const tombstones = await reverie.memory!.list({ category: FORGOTTEN_CATEGORY });
          // The soft forget's record, and the erasure's once it started.
          if (tombstones.length > 1) {
            expect(left, point).toEqual(unrelated);
            for (const tombstone of tombstones) expect(tombstone.content, point).not.toContain('"erasing"');
            expect(filesHolding(dataPath, ...erased), point).toEqual([]);
          } else {
            expect(left, point).toEqual(before);
          }
        },
        withCopies,
      );
    }
  }, 300_000);
});

describe('an erasure killed at any point, on PostgreSQL (PGlite in a directory)', () => {
  const erased = ['Alice keeps a quokka', 'The quokka is called Zephyrine', 'Quokkas eat leaves'];
  // The database lives inside the data directory, so a trial copies both at once.
  const database = (dataPath: string) => join(dataPath, 'pglite');
  const erase = (dataPath: string) => ['erase', dataPath, 'quokka', `pglite:${database(dataPath)}`];
  let pristinePg: string;
  let beforePg: Array<Omit<MemoryEntry, 'updatedAt'>>;

  /** Runs `work` with an instance over the data directory's PGlite database, closing both after. */
  async function withPostgresInstance<T>(dataPath: string, work: (reverie: Reverie, pglite: PGlite) => Promise<T>): Promise<T> {
    mkdirSync(dataPath, { recursive: true });
    const pglite = await PGlite.create({ dataDir: database(dataPath), extensions: { btree_gin } });
    const reverie = createReverie({ dataPath, logger: 'silent' }).withPostgres({ pglite }).withMemory().build();
    try {
      return await work(reverie, pglite);
    } finally {
      await reverie.close();
      await pglite.close();
    }
  }

  /** Every row of every Reverie table of the default scope, as JSON text, lower-cased. */
  async function rowsOf(pglite: PGlite): Promise<string[]> {
    const client = postgresClientFromPglite(pglite);
    const tables = await client.query<{ name: string }>(
      "SELECT DISTINCT table_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name LIKE 'reverie\\_%' AND column_name = 'scope'",
    );
    const rows: string[] = [];
    for (const { name } of tables) {
      for (const row of await client.query<{ json: string }>(
        `SELECT row_to_json(t)::text AS json FROM "${name}" t WHERE scope = 'default'`,
      )) {
        rows.push(`${name} ${row.json.toLowerCase()}`);
      }
    }
    return rows;
  }

  beforeAll(async () => {
    pristinePg = join(root, 'pristine-pg');
    beforePg = await withPostgresInstance(pristinePg, async (reverie) => {
      for (const content of SEEDED) await reverie.memory!.save({ content });
      // A soft-forgotten copy: its run archives the text in the dream state's tables.
      const copy = await reverie.memory!.save({ content: 'Someone said: the QUOKKA is called Zephyrine' });
      await reverie.memory!.forget({ ids: [copy.id] });
      return userEntries(reverie);
    });
  }, 120_000);

  it('is whole after recovery, or was never started: no row of the scope holds the text, unrelated entries are untouched', async () => {
    const points = await tracePoints(erase, pristinePg);
    expect(points.filter((point) => point.startsWith('erase.')).length).toBeGreaterThan(3);
    const unrelated = beforePg.filter((entry) => !entry.content.toLowerCase().includes('quokka'));
    for (const point of points) {
      const dataPath = join(root, `pg-trial-${point.replace(/\W/g, '-')}`);
      cpSync(pristinePg, dataPath, { recursive: true });
      const killed = await runChild(erase(dataPath), { REVERIE_FAULT_KILL_AT: point });
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      await withPostgresInstance(dataPath, async (reverie, pglite) => {
        await reverie.dreams.recover();
        const left = await userEntries(reverie);
        const tombstones = await reverie.memory!.list({ category: FORGOTTEN_CATEGORY });
        if (tombstones.length > 1) {
          expect(left, point).toEqual(unrelated);
          for (const tombstone of tombstones) expect(tombstone.content, point).not.toContain('"erasing"');
          const holding = (await rowsOf(pglite)).filter((row) => erased.some((text) => row.includes(text.toLowerCase())));
          expect(holding, point).toEqual([]);
        } else {
          expect(left, point).toEqual(beforePg);
        }
      });
    }
  }, 600_000);
});
