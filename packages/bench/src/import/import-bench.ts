// pnpm bench:import — how long `import('reverie')` takes in a fresh process (SPEC B12).
// Every round spawns one bare `node` per case, in the same order, so a busy machine slows every
// case alike: `node -e ''` (the process alone), `import('ai')` (the AI SDK a host loads anyway),
// `import('reverie')` (the built dist, resolved as a user's code resolves it) and
// `import('reverie')` after `ai` (what Reverie adds to a host that already uses the AI SDK).
// The import is timed inside the child (performance.now() around the import, and the CPU time
// it took, which a busy machine inflates less); the process from spawn to exit in the parent. One more child loads `reverie` with a module counter preloaded.
// BENCH_IMPORT_RUNS rounds (default 30). `--before <dir>` adds the built `reverie` package in
// <dir> (another checkout's packages/reverie, built) as one more case, for a before/after table.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmt, percentile } from '../measure';
import { reportFigure } from '../figures';

const RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 30);
const benchDir = fileURLToPath(new URL('../..', import.meta.url));
const counter = fileURLToPath(new URL('./count-modules.mjs', import.meta.url));
const requireFromBench = createRequire(join(benchDir, 'package.json'));

interface Case {
  name: string;
  /** Code the child runs before the timed import (not timed). */
  before?: string;
  /** The specifier timed, or none for the bare process. */
  specifier?: string;
  /** Code timed instead of `import(specifier)` (which then only names what is loaded). */
  timed?: string;
}

interface Timing {
  importMs: number;
  /** CPU time (user + system, all threads) the child spent in the import. */
  cpuMs: number;
  processMs: number;
}

function childCode({ before, specifier, timed }: Case, after = ''): string {
  if (specifier === undefined) return '';
  return [
    before ?? '',
    'const cpu = process.cpuUsage();',
    'const started = performance.now();',
    timed ?? `await import(${JSON.stringify(specifier)});`,
    'const importMs = performance.now() - started;',
    'const { user, system } = process.cpuUsage(cpu);',
    after,
    'process.stdout.write(JSON.stringify({ importMs, cpuMs: (user + system) / 1000 }));',
  ].join('\n');
}

/** A data directory for the build cases, made before the timed part. */
const BUILD_SETUP =
  "const { mkdtempSync } = await import('node:fs'); const { tmpdir } = await import('node:os'); const { join } = await import('node:path'); const dataPath = mkdtempSync(join(tmpdir(), 'bench-import-'));";
/** What a host that wires its services with tsyringe has loaded before it imports Reverie. */
const HOST_DI = "await import('reflect-metadata'); const { container } = await import('tsyringe');";
/** Timed: import reverie and build an instance with memory, with `extra` in createReverie's options. */
const build = (extra: string) =>
  `const { createReverie } = await import('reverie'); const r = createReverie({ dataPath, logger: 'silent'${extra} }).withMemory().build(); await r.memory.search({ text: 'warm up' }); await r.close();`;

function runChild(code: string, execArgv: string[] = []): { stdout: string; stderr: string; ms: number } {
  const started = performance.now();
  const child = spawnSync(process.execPath, [...execArgv, '--input-type=module', '-e', code], { cwd: benchDir, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (child.status !== 0) throw new Error(`bench:import child failed (${child.status}): ${child.stderr}`);
  return { stdout: child.stdout, stderr: child.stderr, ms };
}

function measure(cases: Case[]): Map<string, Timing[]> {
  const timings = new Map<string, Timing[]>(cases.map((c) => [c.name, []]));
  for (const c of cases) runChild(childCode(c)); // warm the file system cache; not counted
  for (let round = 0; round < RUNS; round++) {
    for (const c of cases) {
      const { stdout, ms } = runChild(childCode(c));
      const child = c.specifier === undefined ? { importMs: 0, cpuMs: 0 } : (JSON.parse(stdout) as Omit<Timing, 'processMs'>);
      timings.get(c.name)!.push({ ...child, processMs: ms });
    }
  }
  return timings;
}

/** The package a file belongs to (`zod`, `@ai-sdk/provider`), or the workspace package's folder. */
function packageOf(file: string): string {
  const inModules = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (inModules) return inModules[1]!;
  const inWorkspace = /\/packages\/([^/]+)\//.exec(file);
  return inWorkspace ? `(workspace) ${inWorkspace[1]}` : file;
}

function countModules(specifier: string): Map<string, number> {
  const { stderr } = runChild(childCode({ name: 'count', specifier }, 'await new Promise((done) => setTimeout(done, 100));'), [
    '--import',
    pathToFileURL(counter).href,
  ]);
  const line = stderr.trim().split('\n').at(-1)!;
  const { esm, cjs } = JSON.parse(line) as { esm: string[]; cjs: string[] };
  const files = new Set(
    [...esm.map((url) => fileURLToPath(url)), ...cjs].filter((file) => file !== counter && !file.includes('/count-modules')),
  );
  const perPackage = new Map<string, number>();
  for (const file of files) perPackage.set(packageOf(file), (perPackage.get(packageOf(file)) ?? 0) + 1);
  return perPackage;
}

function directoryBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += directoryBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** Which published packages declare date-fns, and its install size as they resolve it. */
function dateFnsFootprint(): { declaredBy: string[]; bytes: number | undefined } {
  const declaredBy: string[] = [];
  let bytes: number | undefined;
  for (const name of ['@reverie/core', '@reverie/file-store', '@reverie/dream', 'reverie']) {
    const manifestPath = requireFromBench.resolve(`${name}/package.json`);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { dependencies?: Record<string, string> };
    if (manifest.dependencies?.['date-fns'] === undefined) continue;
    declaredBy.push(name);
    bytes ??= directoryBytes(dirname(realpathSync(createRequire(manifestPath).resolve('date-fns/package.json'))));
  }
  return { declaredBy, bytes };
}

function summary(values: number[]): { median: number; p90: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p90: percentile(sorted, 90) };
}

function main(): void {
  const beforeAt = process.argv.indexOf('--before');
  const beforeDir = beforeAt === -1 ? undefined : resolve(process.argv[beforeAt + 1] ?? '');
  console.log(
    `# bench:import — node ${process.version}, ${cpus().length} cores, load average ${loadavg()
      .map((l) => fmt(l, 1))
      .join(' ')}, ${new Date().toISOString()}`,
  );
  console.log(`${RUNS} rounds; each round spawns one fresh process per case, in turn. import = inside the child; process = spawn to exit.`);
  const cases: Case[] = [
    { name: "node -e ''" },
    { name: "import('ai')", specifier: 'ai' },
    { name: "import('reverie')", specifier: 'reverie' },
    { name: "import('reverie') after ai", before: "await import('ai');", specifier: 'reverie' },
    // SPEC E2: what a container costs. The host loads tsyringe and reflect-metadata itself (they
    // are its DI stack); Reverie loads neither, so the import and the build are what differ.
    { name: 'import + build', before: BUILD_SETUP, specifier: 'reverie', timed: build('') },
    { name: 'import + build, container', before: `${BUILD_SETUP}${HOST_DI}`, specifier: 'reverie', timed: build(', container') },
    { name: 'tsyringe + reflect-metadata', specifier: 'tsyringe', timed: HOST_DI },
  ];
  if (beforeDir) {
    const main = JSON.parse(readFileSync(join(beforeDir, 'package.json'), 'utf8')) as { module: string };
    cases.push({ name: "import('reverie') --before", specifier: pathToFileURL(join(beforeDir, main.module)).href });
  }
  const timings = measure(cases);

  const stats = new Map(
    cases.map((c) => {
      const runs = timings.get(c.name)!;
      return [
        c.name,
        {
          imported: summary(runs.map((t) => t.importMs)),
          cpu: summary(runs.map((t) => t.cpuMs)),
          process: summary(runs.map((t) => t.processMs)),
        },
      ];
    }),
  );
  const pad = (text: string, width: number) => text.padEnd(width);
  console.log('');
  console.log(
    `${pad('case', 30)}${pad('import median', 15)}${pad('import p90', 12)}${pad('CPU median', 12)}${pad('process median', 16)}process p90`,
  );
  for (const c of cases) {
    const s = stats.get(c.name)!;
    const ms = (value: number) => `${fmt(value, 1)} ms`;
    const imported = c.specifier === undefined ? ['—', '—', '—'] : [ms(s.imported.median), ms(s.imported.p90), ms(s.cpu.median)];
    console.log(
      `${pad(c.name, 30)}${pad(imported[0]!, 15)}${pad(imported[1]!, 12)}${pad(imported[2]!, 12)}${pad(ms(s.process.median), 16)}${ms(s.process.p90)}`,
    );
  }
  const reverie = stats.get("import('reverie')")!;
  const ai = stats.get("import('ai')")!;
  const bare = stats.get("node -e ''")!;
  const afterAi = stats.get("import('reverie') after ai")!;
  console.log('');
  console.log(
    `import('reverie') / import('ai'): ${fmt(reverie.imported.median / ai.imported.median)}× (medians; CPU ${fmt(reverie.cpu.median / ai.cpu.median)}×)`,
  );
  console.log(`process with import('reverie') / bare node: ${fmt(reverie.process.median / bare.process.median)}× (medians)`);
  console.log(`import('reverie') after ai / import('reverie') alone: ${fmt(afterAi.imported.median / reverie.imported.median)}× (medians)`);
  const built = stats.get('import + build')!;
  const withContainer = stats.get('import + build, container')!;
  console.log(
    `import + build + first search with a tsyringe container / without: ${fmt(withContainer.imported.median / built.imported.median)}× (medians; ${fmt(built.imported.median, 1)} → ${fmt(withContainer.imported.median, 1)} ms; the host's own tsyringe + reflect-metadata import, not counted, ${fmt(stats.get('tsyringe + reflect-metadata')!.imported.median, 1)} ms)`,
  );
  const before = stats.get("import('reverie') --before");
  if (before) {
    console.log(
      `import('reverie') / --before: ${fmt(reverie.imported.median / before.imported.median)}× (medians; ${fmt(before.imported.median, 1)} → ${fmt(reverie.imported.median, 1)} ms; CPU ${fmt(before.cpu.median, 1)} → ${fmt(reverie.cpu.median, 1)} ms)`,
    );
  }
  reportFigure({
    id: 'import.reverie',
    label: "import('reverie') in a fresh process (median)",
    value: reverie.imported.median,
    unit: 'ms',
    baseline: before
      ? { label: 'the build given as --before', value: before.imported.median }
      : { label: "import('ai') alone", value: ai.imported.median },
    target: { atMost: 150 },
  });
  reportFigure({
    id: 'import.reverieCpu',
    label: "import('reverie'), CPU time (median)",
    value: reverie.cpu.median,
    unit: 'ms',
    ...(before ? { baseline: { label: 'the build given as --before', value: before.cpu.median } } : {}),
  });
  // On a machine other processes keep busy the wall time waits for a core; the CPU time does not.
  console.log(
    `target: import('reverie') ≤ 150 ms median — ${reverie.imported.median <= 150 ? 'met' : 'NOT met'} in this run (wall ${fmt(reverie.imported.median, 1)} ms, CPU ${fmt(reverie.cpu.median, 1)} ms, load average ${fmt(loadavg()[0]!, 1)})`,
  );

  console.log('');
  const specifiers: Array<[string, string]> = [["import('reverie')", 'reverie']];
  if (beforeDir) specifiers.push(["import('reverie') --before", cases.at(-1)!.specifier!]);
  for (const [name, specifier] of specifiers) {
    const perPackage = countModules(specifier);
    const total = [...perPackage.values()].reduce((sum, n) => sum + n, 0);
    const listed = [...perPackage.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([pkg, n]) => `${pkg} ${n}`)
      .join(', ');
    console.log(
      `modules loaded by ${name}: ${total} (date-fns ${perPackage.get('date-fns') ?? 0}, ai ${perPackage.get('ai') ?? 0}) — ${listed}`,
    );
  }
  const dateFns = dateFnsFootprint();
  console.log(
    dateFns.declaredBy.length === 0
      ? 'date-fns: a dependency of no published package'
      : `date-fns: a dependency of ${dateFns.declaredBy.join(', ')}; installed size ${fmt((dateFns.bytes ?? 0) / 1024 / 1024, 1)} MiB`,
  );
}

main();
