import { execFileSync } from 'node:child_process';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIfStale } from './built-packages';

// What `import('reverie')` loads, checked by the files a plain `node` process has loaded (not by
// time; `pnpm bench:import` measures that): the built packages as a user gets them, ESM and CJS.
// A process that builds an instance and serves a turn loads neither the dream engine with its
// passes and model gateway (`@reverie/dream`'s main entry) nor the AI SDK nor any of date-fns
// (only the fact check reads relative dates);
// its first dream cycle loads them and runs. The same holds with `.withPostgres()`: the PostgreSQL
// dream state imports only the contract (`@reverie/dream-state`), not the engine. Without
// `createReverie({ container })` no process loads tsyringe or reflect-metadata: the builder wires
// services in its own container. With one, Reverie drives the host's container through its own
// methods and loads no file of tsyringe or reflect-metadata that the host had not loaded. Builds
// first when a dist/ is missing or stale.
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(packageDir, '..', '..');
const recorder = pathToFileURL(join(packageDir, 'test', '__fixtures__', 'record-loaded-modules.mjs')).href;

beforeAll(() => buildIfStale(['core', 'dream-state', 'file-store', 'dream', 'postgres', 'reverie']), 600_000);

/** A language model answering every call with an empty consolidation, written without `ai`. */
const modelSource = `{
  specificationVersion: 'v3', provider: 'scripted', modelId: 'empty-consolidation', supportedUrls: {}, calls: 0,
  async doGenerate() {
    this.calls += 1;
    return {
      content: [{ type: 'text', text: '{"toDelete": [], "toSave": []}' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } },
      warnings: [],
    };
  },
  async doStream() { throw new Error('not scripted'); },
}`;

type Backend = 'files' | 'postgres' | 'container';

const scenario = (load: string, backend: Backend) => `
  ${backend === 'container' ? "await import('reflect-metadata'); const { container } = await import('tsyringe');" : ''}
  const hostLoaded = await globalThis.loadedModules();
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { createReverie } = ${load};
  const atImport = await globalThis.loadedModules();
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-laziness-'));
  const model = ${modelSource};
  const builder = createReverie({ dataPath, model${backend === 'container' ? ', container' : ''} });
  ${backend === 'postgres' ? "const { PGlite } = await import('@electric-sql/pglite'); const { btree_gin } = await import('@electric-sql/pglite/contrib/btree_gin'); builder.withPostgres({ pglite: await PGlite.create({ extensions: { btree_gin } }) });" : ''}
  const reverie = builder.withMemory().withConversationLog().withDreaming({ preferenceInference: { enabled: false } }).build();
  await reverie.memory.save({ content: 'The user moved to Porto' });
  await reverie.memory.save({ content: 'The user now lives in Porto, Portugal' });
  await reverie.memory.save({ content: 'Deploys happen on Tuesdays' });
  await reverie.memory.save({ content: 'deploys happen on tuesdays' });
  const turn = await reverie.context.forTurn({ sessionId: 's1', message: 'Where does the user live?' });
  await reverie.context.recordReply('s1', 'In Porto.');
  const plan = reverie.dreams.plan().map((pass) => pass.name + ':' + pass.status);
  const afterTurn = await globalThis.loadedModules();
  const report = await reverie.dreams.run();
  const afterCycle = await globalThis.loadedModules();
  const memories = (await reverie.memory.list()).map((entry) => entry.content);
  await reverie.close();
  rmSync(dataPath, { recursive: true, force: true });
  console.log(JSON.stringify({
    hostLoaded, atImport, afterTurn, afterCycle, plan, memories, modelCalls: model.calls,
    recalled: turn.systemPrompt.includes('Porto'),
    passes: report.passes.map((pass) => pass.name + ':' + pass.status),
  }));
`;

interface Outcome {
  hostLoaded: string[];
  atImport: string[];
  afterTurn: string[];
  afterCycle: string[];
  plan: string[];
  memories: string[];
  modelCalls: number;
  recalled: boolean;
  passes: string[];
}

function run(format: 'esm' | 'cjs', backend: Backend = 'files'): Outcome {
  const load =
    format === 'esm'
      ? "await import('reverie')"
      : "(await import('node:module')).createRequire(join(process.cwd(), 'package.json'))('reverie')";
  const stdout = execFileSync(process.execPath, ['--import', recorder, '--input-type=module', '-e', scenario(load, backend)], {
    cwd: packageDir,
    encoding: 'utf8',
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Outcome;
}

const dreamMain = (file: string) => file.startsWith(join(root, 'packages', 'dream', 'dist', 'index.'));
const aiSdk = (file: string) => file.includes(`${sep}node_modules${sep}ai${sep}`);
const dateFns = (file: string) => /[\\/]node_modules[\\/]date-fns[\\/]/.test(file);
/** OpenTelemetry loads only with `createReverie({ telemetry })` (or with the AI SDK, which imports it). */
const openTelemetry = (file: string) => /[\\/]node_modules[\\/]@opentelemetry[\\/]/.test(file);
/** Packages a process serving turns never needs: the builder's container is Reverie's own. */
const neverLoaded = (file: string) => /[\\/]node_modules[\\/](tsyringe|reflect-metadata|tslib)[\\/]/.test(file);

describe.each(['esm', 'cjs'] as const)('import reverie (%s build) in a fresh process', (format) => {
  let outcome: Outcome;
  beforeAll(() => {
    outcome = run(format);
  }, 60_000);

  it('loads no dream pass, engine or model gateway, no AI SDK and no date-fns up to the first turn', () => {
    // The test sees the files: if the recorder stopped recording, the checks below would pass
    // for nothing, so the built entry must be among them.
    expect(outcome.atImport.some((file) => file.startsWith(join(root, 'packages', 'reverie', 'dist', 'index.')))).toBe(true);
    expect(outcome.atImport.some((file) => file.startsWith(join(root, 'packages', 'dream', 'dist', 'options.')))).toBe(true);
    for (const loaded of [outcome.atImport, outcome.afterTurn]) {
      expect(loaded.filter(dreamMain)).toEqual([]);
      expect(loaded.filter(aiSdk)).toEqual([]);
      expect(loaded.filter(dateFns)).toEqual([]);
      expect(loaded.filter(openTelemetry)).toEqual([]);
    }
    for (const loaded of [outcome.atImport, outcome.afterTurn, outcome.afterCycle]) expect(loaded.filter(neverLoaded)).toEqual([]);
    expect(outcome.recalled).toBe(true);
    expect(outcome.plan).toContain('memory-consolidation:would-run');
  });

  it('runs a dream cycle right after, loading the engine, its passes and the AI SDK then', () => {
    expect(outcome.afterCycle.filter(dreamMain).length).toBeGreaterThan(0);
    expect(outcome.afterCycle.filter(aiSdk).length).toBeGreaterThan(0);
    expect(outcome.passes).toContain('memory-consolidation:ok');
    expect(outcome.passes).toContain('importance-decay:ok');
    expect(outcome.modelCalls).toBeGreaterThan(0);
    // The exact duplicates are merged without the model; the model kept the Porto pair apart.
    expect(outcome.memories.filter((content) => /deploys/i.test(content))).toHaveLength(1);
    expect(outcome.memories.filter((content) => /porto/i.test(content))).toHaveLength(2);
  });
});

describe('.withPostgres() in a fresh process (ESM)', () => {
  let outcome: Outcome;
  beforeAll(() => {
    outcome = run('esm', 'postgres');
  }, 120_000);

  it('loads @reverie/postgres at build, and no dream pass, engine or model gateway up to the first turn', () => {
    const postgres = (file: string) => file.startsWith(join(root, 'packages', 'postgres', 'dist', 'index.'));
    expect(outcome.atImport.filter(postgres)).toEqual([]);
    expect(outcome.afterTurn.filter(postgres).length).toBeGreaterThan(0);
    for (const loaded of [outcome.atImport, outcome.afterTurn]) {
      expect(loaded.filter(dreamMain)).toEqual([]);
      expect(loaded.filter(aiSdk)).toEqual([]);
    }
    expect(outcome.recalled).toBe(true);
  });

  it('runs a dream cycle on PostgreSQL right after, loading the engine and its passes then', () => {
    expect(outcome.afterCycle.filter(dreamMain).length).toBeGreaterThan(0);
    expect(outcome.passes).toContain('memory-consolidation:ok');
    expect(outcome.memories.filter((content) => /deploys/i.test(content))).toHaveLength(1);
  });
});

describe('createReverie({ container }) in a fresh process (ESM)', () => {
  let outcome: Outcome;
  beforeAll(() => {
    outcome = run('esm', 'container');
  }, 60_000);

  it('loads no file of tsyringe or reflect-metadata beyond those the host loaded, and the same lazy parts as without', () => {
    const hostFiles = new Set(outcome.hostLoaded.filter(neverLoaded));
    expect(hostFiles.size).toBeGreaterThan(0);
    for (const loaded of [outcome.atImport, outcome.afterTurn, outcome.afterCycle]) {
      expect(loaded.filter((file) => neverLoaded(file) && !hostFiles.has(file))).toEqual([]);
    }
    expect(outcome.afterTurn.filter(dreamMain)).toEqual([]);
    expect(outcome.recalled).toBe(true);
    expect(outcome.passes).toContain('memory-consolidation:ok');
  });
});
