import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock, RecordingLogger, ReverieLockHeldError } from '@reverie/core';
import { DreamEngine, type DreamPass, type DreamServices } from '@reverie/dream';
import { DreamLedger, DreamLock } from '@reverie/file-store/internal';
import { FileDreamStateStore } from '@reverie/file-store';
import { DreamTrigger, type DreamTriggerOptions } from './dream-trigger';
import { type DreamGateOptionsInput, dreamGateOptionsSchema } from './gate-options';

let dataPath: string;
let clock: ManualClock;
let services: DreamServices;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-trigger-'));
  clock = new ManualClock('2026-06-01T00:00:00.000Z');
  services = { dataPath, clock, state: new FileDreamStateStore({ dataPath, clock }), logger: new RecordingLogger() };
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

const broken = { value: false };
const pass: DreamPass = {
  name: 'importance-decay',
  phase: 'light-sleep',
  requires: [],
  model: 'none',
  async plan() {
    if (broken.value) throw new Error('broken');
    return { operations: [], itemsProcessed: 1, notes: [], refusals: [] };
  },
};
beforeEach(() => {
  broken.value = false;
});

function trigger(gates: DreamGateOptionsInput = {}, extra: Partial<DreamTriggerOptions> = {}) {
  const engine = new DreamEngine(services, [pass]);
  return new DreamTrigger({
    engine,
    state: services.state,
    clock,
    logger: services.logger,
    enabled: true,
    gates: dreamGateOptionsSchema.parse(gates),
    ...extra,
  });
}

const runs = async () => new Set((await new DreamLedger(dataPath).read()).lines.map((line) => line.runId)).size;

describe('DreamTrigger (SPEC O2, O3)', () => {
  it('runs a cycle when no gate is set, reporting every gate in cascade order', async () => {
    const result = await trigger().trigger({ reason: 'tick' });
    expect(result.triggered).toBe(true);
    if (!result.triggered) throw new Error('unreachable');
    expect(result.report.trigger).toBe('tick');
    expect(result.gates.map((g) => [g.gate, g.passed])).toEqual([
      ['disabled', true],
      ['time', true],
      ['sessions', true],
      ['lock', true],
      ['signal', true],
    ]);
    expect(result.gates[1]!.reason).toBe('no time gate (gates.minHours is not set)');
  });

  it('stops at the disabled gate, writing nothing', async () => {
    const result = await trigger({}, { enabled: false }).trigger();
    expect(result).toMatchObject({ triggered: false, gate: 'disabled', reason: expect.stringContaining('disabled') });
    expect(existsSync(join(dataPath, '_system'))).toBe(false);
  });

  it('waits minHours after the last successful run; a failed run does not count', async () => {
    const gated = trigger({ minHours: 6 });
    expect((await gated.trigger()).triggered).toBe(true);
    clock.advance(5 * 3_600_000);
    const blocked = await gated.trigger({ reason: 'tick' });
    expect(blocked).toMatchObject({
      triggered: false,
      gate: 'time',
      reason: expect.stringContaining('5.0 h since the last successful run'),
    });
    expect(blocked.triggered === false && blocked.reason).toContain('needs 6 h');
    clock.advance(3_600_000);
    broken.value = true;
    expect((await gated.trigger()).triggered).toBe(true);
    clock.advance(60_000);
    broken.value = false;
    // The last run failed, so the time still counts from the one before it.
    expect((await gated.trigger()).triggered).toBe(true);
    expect(await runs()).toBe(3);
  });

  it('waits for minSessions completed sessions since the last successful run', async () => {
    const gated = trigger({ minSessions: 2 });
    expect(await gated.trigger()).toMatchObject({
      triggered: false,
      gate: 'sessions',
      reason: '0 completed session(s) since the first; the session gate needs 2',
    });
    await gated.recordSessionEnd('s1');
    await gated.recordSessionEnd('s1');
    expect(await gated.trigger()).toMatchObject({ triggered: false, gate: 'sessions' });
    await gated.recordSessionEnd('s2');
    expect((await gated.trigger()).triggered).toBe(true);
    clock.advance(1000);
    expect(await gated.trigger()).toMatchObject({
      triggered: false,
      gate: 'sessions',
      reason: expect.stringContaining('0 completed session(s) since the last successful run'),
    });
    clock.advance(1000);
    await gated.recordSessionEnd('s1');
    await gated.recordSessionEnd('s3');
    expect((await gated.trigger()).triggered).toBe(true);
  });

  it('checks time before sessions, and both before the lock and the signal', async () => {
    const signalSource = { unpromotedCandidates: vi.fn(async () => 10) };
    const gated = trigger({ minHours: 1, minSessions: 1, signal: {} }, { signalSource });
    await gated.recordSessionEnd('s1');
    expect((await gated.trigger()).triggered).toBe(true);
    expect(signalSource.unpromotedCandidates).toHaveBeenCalledTimes(1);
    const blocked = await gated.trigger();
    expect(blocked).toMatchObject({ triggered: false, gate: 'time' });
    expect(blocked.gates.map((g) => g.gate)).toEqual(['disabled', 'time']);
    expect(signalSource.unpromotedCandidates).toHaveBeenCalledTimes(1);
  });

  it('stops at the lock gate while another runner holds the lock, naming it, and passes a stale lock', async () => {
    const other = await new DreamLock({ dataPath, clock, host: 'another-host' }).acquire('their-run');
    const gated = trigger();
    expect(await gated.trigger()).toMatchObject({ triggered: false, gate: 'lock', reason: expect.stringContaining('(run their-run)') });
    clock.advance(61 * 60_000);
    const result = await gated.trigger();
    expect(result.triggered).toBe(true);
    expect(result.gates.find((g) => g.gate === 'lock')?.reason).toContain('is stale');
    await other.release();
  });

  it('reports the lock gate when another runner takes the lock between the check and the run', async () => {
    const engine = {
      lockState: async () => ({ status: 'free' as const }),
      run: async () => {
        throw new ReverieLockHeldError('Another dream run holds the lock: process 9 on box.');
      },
    };
    const result = await new DreamTrigger({ engine, state: services.state, clock, logger: services.logger, enabled: true }).trigger();
    expect(result).toMatchObject({ triggered: false, gate: 'lock', reason: 'Another dream run holds the lock: process 9 on box.' });
    expect(result.gates.map((g) => [g.gate, g.passed])).toEqual([
      ['disabled', true],
      ['time', true],
      ['sessions', true],
      ['lock', false],
      ['signal', true],
    ]);
  });

  it('asks the signal source for candidates over the thresholds and needs minUnpromoted of them', async () => {
    let count = 2;
    const signalSource = { unpromotedCandidates: vi.fn(async () => count) };
    const gated = trigger({ signal: { minUnpromoted: 3, minRecallCount: 4, minScore: 0.7 } }, { signalSource });
    expect(await gated.trigger()).toMatchObject({
      triggered: false,
      gate: 'signal',
      reason: '2 unpromoted candidate(s) recalled 4+ times with score ≥ 0.7; the signal gate needs 3',
    });
    expect(signalSource.unpromotedCandidates).toHaveBeenCalledWith({ minRecallCount: 4, minScore: 0.7 });
    count = 3;
    expect((await gated.trigger()).triggered).toBe(true);
  });

  it('passes the signal gate when no signal source is given', async () => {
    const result = await trigger({ signal: { minUnpromoted: 100 } }).trigger();
    expect(result.triggered).toBe(true);
    expect(result.gates.at(-1)).toEqual({ gate: 'signal', passed: true, reason: 'no signal source configured; the signal gate passes' });
  });
});

describe('dreamGateOptionsSchema', () => {
  it('sets no gate by default and fills the signal thresholds when the signal gate is on', () => {
    expect(dreamGateOptionsSchema.parse({})).toEqual({});
    expect(dreamGateOptionsSchema.parse({ signal: {} })).toEqual({ signal: { minUnpromoted: 1, minRecallCount: 3, minScore: 0.6 } });
  });

  it('refuses nonsense', () => {
    for (const bad of [{ minHours: 0 }, { minSessions: 1.5 }, { signal: { minScore: 2 } }, { minutes: 3 }]) {
      expect(dreamGateOptionsSchema.safeParse(bad).success).toBe(false);
    }
  });
});
