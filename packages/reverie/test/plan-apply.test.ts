import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@reverie/core';
import { cursorsDir, RunFolder } from '@reverie/file-store/internal';
import { createReverie, type CycleReport, type MemoryEntry, type Reverie } from 'reverie';
import { bundleDreamChild } from './__fixtures__/child-bundle';
import { memoryImage, seedCrashFixture, skillImage } from './__fixtures__/crash-fixture';
import { dreamModel } from './__fixtures__/dream-model';

// Review before apply (SPEC O12): a dry run saves its plan; `dreams.apply(planId)`
// applies exactly that plan, later, without a model call, as a normal run.
const here = dirname(fileURLToPath(import.meta.url));
const NOW = '2026-06-01T09:00:00.000Z';
let root: string;
let pristine: string;
let child: string;
let trial = 0;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'reverie-plan-apply-'));
  pristine = join(root, 'pristine');
  await seedCrashFixture(pristine, { seed: 3, pairs: 3 });
  child = await bundleDreamChild(root);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh copy of the seeded data directory. */
function copy(): string {
  const dataPath = join(root, `trial-${++trial}`);
  cpSync(pristine, dataPath, { recursive: true });
  return dataPath;
}

/** `clock: null`: the system clock, as the child process of the crash test has. */
function open(
  dataPath: string,
  options: { clock?: ManualClock | null; model?: ReturnType<typeof dreamModel>; planMaxAge?: string } = {},
): Reverie {
  const clock = options.clock === null ? {} : { clock: options.clock ?? new ManualClock(NOW) };
  return (
    createReverie({ dataPath, ...clock, model: options.model ?? dreamModel() })
      .withMemory()
      .withSkills()
      .withConversationLog()
      // A plan's passes are each planned against the stores as the dry run found them; the decay
      // pass writes nothing by default (read-time decay), so it never makes a later pass conflict.
      .withDreaming({ ...(options.planMaxAge ? { planMaxAge: options.planMaxAge } : {}) })
      .build()
  );
}

/** What a run leaves in memory, without the ids and times a store or a merge hands out. */
function memoryContents(entries: readonly MemoryEntry[]): string[] {
  return entries
    .map((entry) =>
      JSON.stringify([
        entry.category,
        entry.content,
        entry.importance,
        entry.reinforcementCount,
        entry.tags,
        entry.createdAt,
        entry.lastSeenAt,
      ]),
    )
    .sort();
}

async function state(reverie: Reverie) {
  return {
    memory: memoryContents(await reverie.memory!.list()),
    skills: skillImage(await reverie.skills!.list()),
    log: (await reverie.conversationLog!.read()).map((turn) => [turn.seq, turn.content]),
  };
}

/** The cursor files by name; the consolidation's fingerprint files are named by a random generation, and are not JSON. */
function cursorFiles(dataPath: string): Record<string, unknown> {
  const dir = cursorsDir(dataPath);
  return Object.fromEntries(
    readdirSync(dir).map((name) => {
      const text = readFileSync(join(dir, name), 'utf8');
      return [name.replace(/\.seen\.[0-9a-f]{12}\./, '.seen.<generation>.'), name.endsWith('.json') ? (JSON.parse(text) as unknown) : text];
    }),
  );
}

type Ran = Exclude<CycleReport['passes'][number], { status: 'skipped' }>;
const ran = (report: CycleReport, name: string) => report.passes.find((pass) => pass.name === name) as Ran;

describe('review before apply', () => {
  it('applies a saved plan exactly as a direct run would, without asking the model again, and undoes it', async () => {
    const direct = open(copy());
    const directReport = await direct.dreams.run({ trigger: 'test' });
    const expected = await state(direct);
    const expectedCursors = cursorFiles(direct.dataPath);
    await direct.close();

    const dataPath = copy();
    const model = dreamModel();
    const reverie = open(dataPath, { model });
    try {
      const before = await state(reverie);
      const dry = await reverie.dreams.run({ dryRun: true });
      expect(dry.planId).toMatch(/^[0-9a-f]{12}$/);
      expect(await state(reverie)).toEqual(before);
      expect(existsSync(cursorsDir(dataPath))).toBe(false);
      expect(readFileSync(join(dry.planFolder!, 'summary.md'), 'utf8')).toContain(`# Dream plan ${dry.planId}`);
      const calls = model.doGenerateCalls.length;
      expect(calls).toBeGreaterThan(0);

      const applied = await reverie.dreams.apply(dry.planId!);
      expect(model.doGenerateCalls.length).toBe(calls);
      expect(applied).toMatchObject({ trigger: 'apply', dryRun: false, planId: dry.planId });
      expect(applied.passes.map((pass) => [pass.name, pass.status])).toEqual(directReport.passes.map((pass) => [pass.name, pass.status]));
      for (const name of ['memory-consolidation', 'skill-consolidation', 'episode-extraction']) {
        expect(ran(applied, name).applied, name).toBe(ran(directReport, name).applied);
      }
      for (const name of ['memory-consolidation', 'skill-consolidation', 'preference-inference'])
        expect(ran(applied, name).applied, name).toBeGreaterThan(0);
      const after = await state(reverie);
      expect(after.memory).toEqual(expected.memory);
      expect(after.skills).toEqual(expected.skills);
      // The one documented difference: the dry run planned the log clear before the other log
      // readers had moved their cursors, so the plan clears nothing; the next cycle does.
      expect(after.log).toEqual(before.log);
      expect(expected.log.length).toBeLessThan(before.log.length);
      // The passes' commits ran too: the same cursors, but for the ids a merge hands out.
      expect(Object.keys(cursorFiles(dataPath)).sort()).toEqual(Object.keys(expectedCursors).sort());
      expect(cursorFiles(dataPath)['episode-extraction.json']).toEqual(expectedCursors['episode-extraction.json']);
      expect(cursorFiles(dataPath)['preference-inference.json']).toEqual(expectedCursors['preference-inference.json']);

      // A normal run: its folder says which plan it applied, the ledger has its lines, undo reverses it.
      const folder = (await RunFolder.open(dataPath, applied.runId))!;
      expect(folder.state).toMatchObject({ status: 'complete', trigger: 'apply', planId: dry.planId });
      expect((await reverie.dreams.status()).lastSuccessfulRunAt).toBe(applied.completedAt);
      expect(await reverie.dreams.plans()).toEqual([]);
      await reverie.dreams.undo(applied.runId);
      expect((await state(reverie)).memory).toEqual(before.memory);
      expect((await state(reverie)).skills).toEqual(before.skills);
    } finally {
      await reverie.close();
    }
  }, 60_000);

  it('leaves an entry changed since the plan alone, reports it, and applies the rest', async () => {
    const reverie = open(copy());
    try {
      const dry = await reverie.dreams.run({ dryRun: true, pass: 'memory-consolidation' });
      const planned = ran(dry, 'memory-consolidation').planned!;
      const merge = planned.find((operation) => operation.op === 'memory.save' && operation.entry.content.includes('Also:'));
      expect(merge).toBeDefined();
      const topic = /topic-\d+/.exec(merge!.op === 'memory.save' ? merge!.entry.content : '')![0];
      const source = (await reverie.memory!.list()).find((entry) => entry.content.startsWith(`${topic}:`))!;
      await reverie.memory!.save({ ...source, content: `${source.content} (edited by the agent)` });

      const applied = await reverie.dreams.apply(dry.planId!);
      const outcome = ran(applied, 'memory-consolidation');
      expect(outcome.status).toBe('ok');
      expect(outcome.conflicts).toBe(1);
      expect(outcome.conflicted).toEqual([`memory ${source.id}`]);
      expect(outcome.applied).toBe(planned.length - 1);
      expect((await reverie.memory!.get(source.id))?.content).toBe(`${source.content} (edited by the agent)`);
      // The other merges landed: exact duplicates are gone.
      const contents = (await reverie.memory!.list()).map((entry) => entry.content);
      expect(new Set(contents).size).toBe(contents.length);
    } finally {
      await reverie.close();
    }
  }, 30_000);

  it('refuses a plan applied already, an unknown one and one older than planMaxAge, saying what to do', async () => {
    const clock = new ManualClock(NOW);
    const dataPath = copy();
    let reverie = open(dataPath, { clock });
    try {
      const first = await reverie.dreams.run({ dryRun: true, pass: 'archive-retention' });
      const second = await reverie.dreams.run({ dryRun: true, pass: 'memory-consolidation' });
      const listed = await reverie.dreams.plans();
      expect(listed.map((plan) => [plan.planId, plan.expired])).toEqual(
        expect.arrayContaining([
          [first.planId, false],
          [second.planId, false],
        ]),
      );
      const consolidation = listed.find((plan) => plan.planId === second.planId)!;
      expect(consolidation.passes).toEqual([{ name: 'memory-consolidation', status: 'planned', operations: consolidation.operations }]);
      expect(consolidation.operations).toBeGreaterThan(0);

      const applied = await reverie.dreams.apply(first.planId!);
      await expect(reverie.dreams.apply(first.planId!)).rejects.toMatchObject({
        code: 'PLAN_APPLIED',
        message: expect.stringContaining(`already applied, by run ${applied.runId}`),
      });
      await expect(reverie.dreams.apply('0123456789ab')).rejects.toMatchObject({
        code: 'PLAN_NOT_FOUND',
        message: expect.stringContaining('reverie dream plans'),
      });
      await expect(reverie.dreams.apply('../../runs')).rejects.toMatchObject({ code: 'PLAN_NOT_FOUND' });

      clock.advance(24 * 3_600_000 + 1);
      expect((await reverie.dreams.plans()).map((plan) => [plan.planId, plan.expired])).toEqual([[second.planId, true]]);
      await expect(reverie.dreams.apply(second.planId!)).rejects.toMatchObject({
        code: 'PLAN_EXPIRED',
        message: expect.stringMatching(/more than 24 h ago .*make a new plan with a dry run/i),
      });
      await reverie.close();

      reverie = open(dataPath, { clock, planMaxAge: '2d' });
      expect(ran(await reverie.dreams.apply(second.planId!), 'memory-consolidation').applied).toBe(consolidation.operations);
    } finally {
      await reverie.close();
    }
    expect(() => open(dataPath, { planMaxAge: '0' })).toThrow(/planMaxAge/);
  }, 30_000);

  it('recovers an apply killed mid-way like a killed run, and applies the plan only once', async () => {
    for (const point of ['operation-after#2', 'pass-applied#3']) {
      const dataPath = copy();
      const before = open(dataPath, { clock: null });
      const image = { memory: memoryImage(await before.memory!.list()), skills: skillImage(await before.skills!.list()) };
      const { planId } = await before.dreams.run({ dryRun: true });
      await before.close();

      const killed = await runChild(['apply', dataPath, planId!], { REVERIE_FAULT_KILL_AT: point });
      expect(killed.signal, `${point}: ${killed.stderr}`).toBe('SIGKILL');

      const reverie = open(dataPath, { clock: null });
      try {
        const recovered = await reverie.dreams.recover();
        expect(recovered, point).toHaveLength(1);
        const folder = (await RunFolder.open(dataPath, recovered[0]!))!;
        expect(folder.state, point).toMatchObject({ status: 'interrupted', planId });
        const journal = await folder.readJournal();
        for (const pass of folder.state.passes) {
          const operations = (await folder.readPlan(pass)).operations.length;
          expect(new Set(journal.filter((line) => line.pass === pass).map((line) => line.index)).size, `${point}: ${pass}`).toBe(
            operations,
          );
        }
        await expect(reverie.dreams.apply(planId!)).rejects.toMatchObject({ code: 'PLAN_APPLIED' });
        await reverie.dreams.undo(recovered[0]!);
        expect(memoryImage(await reverie.memory!.list()), point).toEqual(image.memory);
        expect(skillImage(await reverie.skills!.list()), point).toEqual(image.skills);
      } finally {
        await reverie.close();
      }
    }
  }, 60_000);
});

function runChild(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const proc = spawn(process.execPath, [child, ...args], { cwd: resolve(here, '..'), env: { ...process.env, ...env } });
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.on('error', reject);
    proc.on('exit', (code, signal) => resolveRun({ code, signal, stderr }));
  });
}
