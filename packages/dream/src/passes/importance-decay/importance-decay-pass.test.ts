import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decayImportance, effectiveImportance, InMemoryLongTermMemory, ManualClock, RecordingLogger } from '@reverie/core';
import { DAY_MS } from '@reverie/core/internal';
import { DreamEngine } from '../../engine/dream-engine';
import type { CycleReport, DreamServices, PassOutcome } from '../../engine/dream-types';
import { cursorsDir, runsDir } from '@reverie/file-store/internal';
import { ImportanceDecayPass } from './importance-decay-pass';
import { FileDreamStateStore } from '@reverie/file-store';

const START = '2026-06-01T00:00:00.000Z';
let dataPath: string;
let clock: ManualClock;
let memory: InMemoryLongTermMemory;
let services: DreamServices;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-decay-'));
  clock = new ManualClock(START);
  memory = new InMemoryLongTermMemory({ clock });
  services = { dataPath, clock, state: new FileDreamStateStore({ dataPath, clock }), logger: new RecordingLogger(), memory };
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

const daysBefore = (days: number) => new Date(Date.parse(START) - days * DAY_MS).toISOString();

/** The decay pass's outcome in a cycle report (it never skips when memory is there). */
function decayOutcome(report: CycleReport): Exclude<PassOutcome, { status: 'skipped' }> {
  const outcome = report.passes.find((p) => p.name === 'importance-decay');
  if (!outcome || outcome.status === 'skipped') throw new Error('importance-decay did not run');
  return outcome;
}

/** Every file under `dir`, with its size. */
function filesUnder(dir: string): Array<{ path: string; size: number }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, size: statSync(path).size };
    });
}

describe('ImportanceDecayPass (read-time decay, SPEC D7)', () => {
  it('writes no entry and archives nothing by default, however many entries have aged', async () => {
    const N = 300;
    for (let i = 0; i < N; i++) await memory.save({ content: `aging fact ${i}`, importance: 0.9, lastSeenAt: daysBefore(40 + (i % 100)) });
    const before = await memory.list();

    const listed = vi.spyOn(memory, 'list');
    const quiet = decayOutcome(await new DreamEngine(services, [new ImportanceDecayPass()]).run({ trigger: 'schedule' }));
    // By default the pass has nothing to do: it does not even read the memory (SPEC B12).
    expect(quiet).toMatchObject({ status: 'ok', itemsProcessed: 0, applied: 0 });
    expect(listed).not.toHaveBeenCalled();
    listed.mockRestore();

    const report = await new DreamEngine(services, [new ImportanceDecayPass({ report: true })]).run({ trigger: 'schedule' });

    const pass = decayOutcome(report);
    expect(pass).toMatchObject({ status: 'ok', itemsProcessed: N });
    expect(pass.details).toMatchObject({ decayed: N, rewritten: 0, migrated: 0 });
    expect(pass.notes.join('\n')).toContain(`${N} of ${N} entries have decayed below their stored importance`);
    expect(await memory.list()).toEqual(before);
    const runFiles = filesUnder(runsDir(dataPath));
    expect(runFiles.filter((file) => file.path.includes(`${join('archive', '')}`))).toEqual([]);
    // The run folder holds its summary and bookkeeping, not one file per aging entry.
    expect(runFiles.length).toBeLessThan(10);
  });

  it('lets the store browse by the value the rewriting pass would have stored', async () => {
    const entry = await memory.save({ content: 'old fact', importance: 0.95, lastSeenAt: daysBefore(100) });
    const [browsed] = await memory.search({ maxResults: 1 });
    const expected = decayImportance(0.95, { lastSeenAt: entry.lastSeenAt, from: entry.lastSeenAt, to: START });
    expect(browsed!.score).toBeCloseTo(expected, 12);

    const written = new InMemoryLongTermMemory({ clock });
    const copy = await written.save({ content: 'old fact', importance: 0.95, lastSeenAt: daysBefore(100) });
    await new DreamEngine({ ...services, memory: written }, [new ImportanceDecayPass({ write: true })]).run({ trigger: 'schedule' });
    const stored = (await written.get(copy.id))!;
    expect(stored).toMatchObject({ importanceAt: START });
    expect(Math.abs(stored.importance - browsed!.score)).toBeLessThanOrEqual(5e-5);
    // Once written, reading it decays only the time since.
    clock.advance(45 * DAY_MS);
    expect(effectiveImportance(stored, clock.now())).toBeCloseTo(stored.importance / 2, 12);
  });

  it('migrates the rewriting pass’s cursor once: decayed values count from decayedThrough', async () => {
    const through = daysBefore(10);
    // Stored by the old pass: 0.9 decayed from day −100 to day −10, i.e. 60 post-grace days.
    const oldValue =
      Math.round(decayImportance(0.9, { lastSeenAt: daysBefore(100), from: daysBefore(100), to: through }) * 10_000) / 10_000;
    const faded = await memory.save({ content: 'faded fact', importance: oldValue, lastSeenAt: daysBefore(100) });
    const inGrace = await memory.save({ content: 'recent fact', importance: 0.7, lastSeenAt: daysBefore(20) });
    mkdirSync(cursorsDir(dataPath), { recursive: true });
    writeFileSync(join(cursorsDir(dataPath), 'importance-decay.json'), JSON.stringify({ decayedThrough: through }));

    const engine = new DreamEngine(services, [new ImportanceDecayPass()]);
    const first = await engine.run({ trigger: 'schedule' });
    const pass = decayOutcome(first);
    expect(pass.details).toMatchObject({ migrated: 1 });
    expect(pass.notes.join('\n')).toContain('migrated to read-time decay');
    const migrated = (await memory.get(faded.id))!;
    expect(migrated).toMatchObject({ importance: oldValue, importanceAt: through });
    expect(await memory.get(inGrace.id)).toEqual(inGrace);
    // Not decayed twice: from the old stored value, only the 10 days since the old pass.
    const expected = oldValue * 0.5 ** (10 / 45);
    expect(effectiveImportance(migrated, clock.now())).toBeCloseTo(expected, 12);
    expect(JSON.parse(readFileSync(join(cursorsDir(dataPath), 'importance-decay.json'), 'utf8'))).toMatchObject({
      decayedThrough: through,
      migratedAt: START,
    });

    clock.advance(DAY_MS);
    const second = await engine.run({ trigger: 'schedule' });
    // Migrated: the pass is back to doing nothing at all.
    expect(decayOutcome(second)).toMatchObject({ itemsProcessed: 0, applied: 0 });
    expect((await memory.get(faded.id))!.updatedAt).toBe(migrated.updatedAt);
  });

  it('refuses the curve options it no longer owns, saying where they went', () => {
    expect(() => new ImportanceDecayPass({ halfLifeDays: 10 } as never)).toThrowError(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('withMemory({ decay') }),
    );
  });

  it('uses the decay options of the services', async () => {
    await memory.save({ content: 'fact', importance: 0.8, lastSeenAt: daysBefore(40) });
    const report = await new DreamEngine({ ...services, decay: { graceDays: 60, halfLifeDays: 45, floor: 0.1 } }, [
      new ImportanceDecayPass({ report: true }),
    ]).run({ trigger: 'schedule' });
    expect(decayOutcome(report).details).toMatchObject({ decayed: 0 });
  });
});
