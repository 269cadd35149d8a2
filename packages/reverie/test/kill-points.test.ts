import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunFolder } from '@reverie/file-store/internal';
import { createReverie, type Reverie } from 'reverie';
import { bundleDreamChild } from './__fixtures__/child-bundle';
import {
  memoryImage,
  type MemoryImage,
  seedCrashFixture,
  skillImage,
  type SkillImage,
  unreadableFiles,
} from './__fixtures__/crash-fixture';
import { dreamModel } from './__fixtures__/dream-model';

// SPEC B2, process level: a real `node` child (dream-child.ts bundled with the workspace
// sources, see child-bundle.ts) runs a whole dream cycle over a copy of a seeded
// data directory and is SIGKILLed at one fault point of the engine's write path (see
// packages/dream/src/engine/fault-points.ts); the test then recovers in a fresh Reverie, checks
// the invariants, and undoes the run. Every point × occurrence a clean run reaches is one trial.
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, '..');
/** Trials run this many children at a time. */
const PARALLEL = 4;
/** The child (`__fixtures__/dream-child.ts` and the workspace sources), bundled once in beforeAll. */
let child: string;

interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runChild(args: string[], extraEnv: Record<string, string>): Promise<ChildResult> {
  return new Promise((resolveRun, reject) => {
    const proc = spawn(process.execPath, [child, ...args], { cwd: packageDir, env: { ...process.env, ...extraEnv } });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.on('error', reject);
    proc.on('exit', (code, signal) => resolveRun({ code, signal, stdout, stderr }));
  });
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

function open(dataPath: string): Reverie {
  // As the child (`importanceDecay.write`): the decay pass's saves are fault points too.
  return createReverie({ dataPath, model: dreamModel() })
    .withMemory()
    .withSkills()
    .withConversationLog()
    .withDreaming({ importanceDecay: { write: true } })
    .build();
}

interface Fixture {
  label: string;
  pristine: string;
  memory: MemoryImage;
  skills: SkillImage;
  /** Every fault point a clean run reaches, as `name#occurrence`, in order. */
  points: string[];
}

/** Two pairs of each kind reach well over 100 point × occurrence combinations. */
const FIXTURES = [{ seed: 1, pairs: 2 }];
/** To debug one trial: `KILL_POINTS_ONLY='plan-written#3' npx vitest run … kill-points` (a regular expression). */
const ONLY = process.env.KILL_POINTS_ONLY ? new RegExp(process.env.KILL_POINTS_ONLY) : undefined;
let root: string;
const fixtures: Fixture[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'reverie-kill-points-'));
  child = await bundleDreamChild(root);
  for (const options of FIXTURES) {
    const label = `seed${options.seed}-pairs${options.pairs}`;
    const pristine = join(root, label);
    await seedCrashFixture(pristine, options);
    const reverie = open(pristine);
    const fixture: Fixture = {
      label,
      pristine,
      memory: memoryImage(await reverie.memory!.list()),
      skills: skillImage(await reverie.skills!.list()),
      points: [],
    };
    await reverie.close();

    // One clean run with the trace on, over a copy: it lists every point and occurrence.
    const traced = join(root, `${label}-traced`);
    cpSync(pristine, traced, { recursive: true });
    const trace = join(root, `${label}.trace`);
    const clean = await runChild(['dream', traced], { REVERIE_FAULT_TRACE: trace });
    expect(clean.code, clean.stderr).toBe(0);
    const seen = new Map<string, number>();
    for (const name of readFileSync(trace, 'utf8').split('\n').filter(Boolean)) {
      const count = (seen.get(name) ?? 0) + 1;
      seen.set(name, count);
      fixture.points.push(`${name}#${count}`);
    }
    fixtures.push(fixture);
  }
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Trial {
  fixture: Fixture;
  point: string;
}

/** Problems found after killing the run at `point`, recovering and undoing; empty when all holds. */
async function trial({ fixture, point }: Trial, index: number): Promise<string[]> {
  const dataPath = join(root, `trial-${index}`);
  cpSync(fixture.pristine, dataPath, { recursive: true });
  const problems: string[] = [];
  try {
    const killed = await runChild(['dream', dataPath], { REVERIE_FAULT_KILL_AT: point });
    if (killed.signal !== 'SIGKILL')
      return [`the child was not killed (exit ${killed.code}, signal ${killed.signal}): ${killed.stderr.slice(0, 500)}`];
    // Every fault point lies between two complete writes: no file may be torn, whatever its reader tolerates.
    problems.push(...unreadableFiles(dataPath, () => false).map((problem) => `after the kill: ${problem}`));

    const reverie = open(dataPath);
    try {
      const recovered = await reverie.dreams.recover();
      const runs = await RunFolder.list(dataPath);
      if (runs.length !== 1) return [...problems, `expected one run folder, found ${runs.length}`];
      const { manifest } = runs[0]!;
      if (recovered.length !== 1 && manifest.status === 'running') problems.push('recover() left the run running');
      problems.push(...unreadableFiles(dataPath, () => false).map((problem) => `after recovery: ${problem}`));

      // Every pass that was planned is applied to the end: each operation is in the journal.
      const folder = (await RunFolder.open(dataPath, manifest.runId))!;
      const journal = await folder.readJournal();
      for (const pass of folder.state.passes) {
        const planned = (await folder.readPlan(pass)).operations.length;
        const done = new Set(journal.filter((line) => line.pass === pass).map((line) => line.index));
        if (done.size !== planned) problems.push(`pass ${pass}: ${done.size} of ${planned} operations journalled after recovery`);
      }

      // Every source entry is still there or represented by its merged replacement, and no group is both.
      const live = await reverie.memory!.list();
      for (const before of Object.values(fixture.memory)) {
        if (live.some((entry) => entry.id === before.id)) continue;
        if (!live.some((entry) => entry.content.includes(before.content)))
          problems.push(`memory ${before.id} (${JSON.stringify(before.content)}) lost`);
      }
      for (const before of Object.values(fixture.memory)) {
        const holders = live.filter((entry) => entry.content.includes(before.content));
        const group = Object.values(fixture.memory).filter((other) => sameGroup(other.content, before.content)).length;
        if (holders.length !== 1 && holders.length !== group)
          problems.push(`${JSON.stringify(before.content)} is held by ${holders.length} entries (group of ${group})`);
      }
      const skills = await reverie.skills!.list();
      for (const before of Object.values(fixture.skills)) {
        if (skills.some((skill) => skill.name === before.name)) continue;
        if (!skills.some((skill) => skill.content.includes(before.content))) problems.push(`skill ${before.name} lost`);
      }

      // A crash before a pass moved its cursor must not make the next cycle add what it already
      // added: on a copy, run one more cycle and look for entries saved twice.
      if (/^(pass-applied|after-commit)#/.test(point)) problems.push(...(await duplicatesAfterAnotherCycle(dataPath, `${dataPath}-next`)));

      // Undo gives back the memory and the skills exactly as they were before the run.
      await reverie.dreams.undo(manifest.runId);
      problems.push(...differences('memory', fixture.memory, memoryImage(await reverie.memory!.list())));
      problems.push(...differences('skill', fixture.skills, skillImage(await reverie.skills!.list())));
    } finally {
      await reverie.close();
    }
  } catch (error) {
    problems.push(`threw: ${String((error as Error)?.stack ?? error)}`);
  } finally {
    rmSync(dataPath, { recursive: true, force: true });
  }
  return problems;
}

/** Entries with the same category and content after one more clean cycle over a copy of `dataPath`. */
async function duplicatesAfterAnotherCycle(dataPath: string, copy: string): Promise<string[]> {
  cpSync(dataPath, copy, { recursive: true });
  const reverie = open(copy);
  try {
    await reverie.dreams.run({ trigger: 'test' });
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const entry of await reverie.memory!.list()) {
      const key = `${entry.category} ${entry.content}`;
      if (seen.has(key)) problems.push(`the next cycle saved ${JSON.stringify(entry.content)} (${entry.category}) twice`);
      seen.add(key);
    }
    return problems;
  } finally {
    await reverie.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

/** Two contents are of one merge group when they share their `topic-<n>` mark, or are equal. */
function sameGroup(a: string, b: string): boolean {
  const topic = (text: string) => /topic-\d+/.exec(text)?.[0];
  return a === b || (topic(a) !== undefined && topic(a) === topic(b));
}

/** What differs between the image before the run and the one after undo, one line per record. */
function differences<T>(kind: string, before: Record<string, T>, after: Record<string, T>): string[] {
  const lines: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [was, is] = [JSON.stringify(before[key]), JSON.stringify(after[key])];
    if (was !== is) lines.push(`after undo, ${kind} ${key} is ${is ?? 'missing'}, was ${was ?? 'absent'}`);
  }
  return lines;
}

describe('killing a dream run at every fault point (SPEC B2)', () => {
  it('recovers, keeps every file readable and every source, and undoes exactly', async () => {
    const all: Trial[] = fixtures.flatMap((fixture) => fixture.points.map((point) => ({ fixture, point })));
    expect(all.length).toBeGreaterThanOrEqual(100);
    const trials = all.filter((t) => !ONLY || ONLY.test(`${t.fixture.label} ${t.point}`));
    const started = performance.now();
    const outcomes = await inBatches(
      trials.map((t, index) => ({ t, index })),
      PARALLEL,
      async ({ t, index }) => ({ trial: `${t.fixture.label} ${t.point}`, problems: await trial(t, index) }),
    );
    const failed = outcomes.filter((outcome) => outcome.problems.length > 0);
    console.info(
      `kill-points: ${trials.length} trials over ${new Set(trials.map((t) => t.point.split('#')[0])).size} fault points in ${Math.round((performance.now() - started) / 1000)} s`,
    );
    for (const outcome of failed) console.error(`${outcome.trial}:\n  ${outcome.problems.join('\n  ')}`);
    expect(failed.map((outcome) => outcome.trial)).toEqual([]);
  }, 600_000);
});
