import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ILongTermMemory, InMemoryLongTermMemory, ManualClock, RecordingLogger, tierOf } from '@reverie/core';
import { FileDreamStateStore, FileMemoryStore } from '@reverie/file-store';
import { RunFolder } from '@reverie/file-store/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { DreamEngine } from '../engine/dream-engine';
import type { DreamServices, PassContext } from '../engine/dream-types';
import { withoutChangeFeed } from '../changes/memory-feed';
import { TierMigrationPass } from './tier-migration-pass';

const DAY = 86_400_000;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Backend = (dataPath: string, clock: ManualClock) => ILongTermMemory;
const BACKENDS: Array<[string, Backend]> = [
  ['in memory', (_dataPath, clock) => new InMemoryLongTermMemory({ clock })],
  ['file store', (dataPath, clock) => new FileMemoryStore({ dataPath, clock })],
];

/** A memory aged 60 days: `stale` never recalled nor seen since, `kept` important and seen 10 days ago, `pinned` a preference, `young` written now. */
async function world(backend: Backend) {
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-tiers-pass-'));
  dirs.push(dataPath);
  const clock = new ManualClock('2026-01-01T00:00:00.000Z');
  const memory = backend(dataPath, clock);
  const stale = [];
  for (let i = 0; i < 5; i++) stale.push(await memory.save({ content: `Stale fact number ${i} about the old office` }));
  const important = await memory.save({ content: 'The user is allergic to penicillin', importance: 1 });
  const pinned = await memory.save({ content: 'The user prefers metric units', category: 'user-preferences/units', importance: 0.2 });
  clock.advance(60 * DAY);
  const kept = await memory.save({ ...important, lastSeenAt: new Date(clock.now().getTime() - 10 * DAY) });
  const young = await memory.save({ content: 'The user started a pottery class' });
  const logger = new RecordingLogger();
  const services: DreamServices = { dataPath, clock, state: new FileDreamStateStore({ dataPath, clock }), logger, memory };
  return { dataPath, clock, memory, services, logger, stale, kept, pinned, young };
}

const cold = async (memory: ILongTermMemory) => (await memory.list({ tier: 'cold' })).map((entry) => entry.id).sort();

describe.each(BACKENDS)('tier-migration on the %s (SPEC B13)', (_name, backend) => {
  it('moves old low-value entries to cold, keeps important, pinned and young ones hot, and undo brings every one back', async () => {
    const { memory, services, stale, kept, pinned, young } = await world(backend);
    const engine = new DreamEngine(services, [new TierMigrationPass()]);
    const report = await engine.run({ trigger: 'manual' });
    expect(report.passes[0]).toMatchObject({ name: 'tier-migration', status: 'ok', applied: 5 });
    expect(await cold(memory)).toEqual(stale.map((entry) => entry.id).sort());
    for (const entry of [kept, pinned, young]) expect(tierOf((await memory.get(entry.id))!)).toBe('hot');
    // Still remembered: get, list and a search that asks for every tier find them; per-turn (hot) recall does not.
    expect((await memory.get(stale[0]!.id))?.tier).toBe('cold');
    expect((await memory.search({ text: 'old office', tiers: 'hot' })).length).toBe(0);
    expect((await memory.search({ text: 'old office', tiers: 'all', maxResults: 10 })).length).toBe(5);
    expect((await memory.search({ text: 'old office' })).every((hit) => hit.entry.tier === 'cold')).toBe(true);
    // Only the tier changed.
    const moved = (await memory.get(stale[0]!.id))!;
    expect({ ...moved, tier: undefined, updatedAt: undefined }).toEqual({ ...stale[0]!, tier: undefined, updatedAt: undefined });

    const undone = await engine.undo(report.runId);
    expect(undone.restored.length).toBe(5);
    expect(await cold(memory)).toEqual([]);
    expect((await memory.search({ text: 'old office', tiers: 'hot', maxResults: 10 })).length).toBe(5);
  });

  it('changes nothing in a dry run, and a second run has nothing left to move', async () => {
    const { memory, services } = await world(backend);
    const engine = new DreamEngine(services, [new TierMigrationPass()]);
    const dry = await engine.run({ trigger: 'manual', dryRun: true });
    const outcome = dry.passes[0]!;
    expect(outcome.status === 'ok' && outcome.planned?.length).toBe(5);
    expect(await cold(memory)).toEqual([]);
    await engine.run({ trigger: 'manual' });
    const again = await engine.run({ trigger: 'manual' });
    expect(again.passes[0]).toMatchObject({ status: 'ok', applied: 0 });
  });

  it('moves at most maxMovesPerRun, lowest scores first', async () => {
    const { memory, services } = await world(backend);
    await new DreamEngine(services, [new TierMigrationPass({ maxMovesPerRun: 2 })]).run({ trigger: 'manual' });
    expect((await cold(memory)).length).toBe(2);
  });

  it('brings a recalled cold entry back once its value reaches promoteAbove', async () => {
    const { memory, services, clock, stale } = await world(backend);
    const engine = new DreamEngine(services, [new TierMigrationPass()]);
    await engine.run({ trigger: 'manual' });
    const target = stale[2]!.id;
    // Recalled often, well and lately (as the recall-signals pass folds it) and raised by promotion.
    const at = clock.now().toISOString();
    const file = await services.state.recall.readSignals();
    file.entries[target] = { hits: 12, relevanceSum: 11, firstHitAt: at, lastHitAt: at };
    await services.state.recall.writeSignals(file);
    const entry = (await memory.get(target))!;
    await memory.save({ ...entry, importance: 0.8 });
    const report = await engine.run({ trigger: 'manual' });
    expect(report.passes[0]).toMatchObject({ status: 'ok', applied: 1 });
    expect(tierOf((await memory.get(target))!)).toBe('hot');
    expect((await cold(memory)).length).toBe(4);
  });

  it('loses nothing when the process dies mid-apply: recovery rolls the moves forward, and undo brings every one back', async () => {
    const { dataPath, memory, services, stale } = await world(backend);
    const pass = new TierMigrationPass();
    const plan = await pass.plan({ services, now: () => services.clock.now() } as PassContext);
    if ('skipped' in plan) throw new Error('unexpected skip');
    const folder = await RunFolder.create(dataPath, 'cccccccccccc', 'manual', services.clock.now());
    const { orderOperations, applyOperation, archiveOperations } = await import('../engine/operation-applier');
    const ordered = orderOperations(plan.operations);
    await folder.writePlan({ pass: 'tier-migration', operations: ordered, notes: [], refusals: [] });
    await archiveOperations(folder, 'tier-migration', ordered, services);
    // The process dies after two of the five moves, before any journal line.
    await applyOperation(ordered[0]!, services);
    await applyOperation(ordered[1]!, services);
    expect((await memory.list()).length).toBe(8);

    const engine = new DreamEngine(services, [pass]);
    expect(await engine.recover()).toEqual(['cccccccccccc']);
    expect((await memory.list()).length).toBe(8);
    expect(await cold(memory)).toEqual(stale.map((entry) => entry.id).sort());
    await engine.undo('cccccccccccc');
    expect(await cold(memory)).toEqual([]);
    expect((await memory.list()).length).toBe(8);
  });
});

describe('tier-migration on a store without tiers', () => {
  it('skips, keeping every entry hot, and says so once', async () => {
    const { services } = await world((_dataPath, clock) => new InMemoryLongTermMemory({ clock }));
    const plain = withoutChangeFeed(services.memory!);
    const logger = new RecordingLogger();
    const engine = new DreamEngine({ ...services, memory: plain, logger }, [new TierMigrationPass()]);
    const first = await engine.run({ trigger: 'manual' });
    await engine.run({ trigger: 'manual' });
    expect(first.passes[0]).toMatchObject({ status: 'skipped' });
    expect(logger.records.filter((record) => record.message.includes('tier-migration')).length).toBe(1);
  });
});
