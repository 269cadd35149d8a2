import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock, RecordingLogger } from '@reverie/core';
import { DreamLedger, DreamLock, failuresDir, ledgerPath } from '@reverie/file-store/internal';
import { createReverie, dreamingOptionsSchema, renderDreamStatus, type Reverie } from 'reverie';

let dataPath: string;
let reverie: Reverie | undefined;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-dream-ops-'));
});
afterEach(async () => {
  await reverie?.close();
  reverie = undefined;
  vi.useRealTimers();
  rmSync(dataPath, { recursive: true, force: true });
});

/** Waits in real time (the tests fake setTimeout) until `assertion` holds, for up to 5 s. */
async function eventually(assertion: () => unknown): Promise<void> {
  for (let waited = 0; ; waited += 10) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (waited > 5000) throw error;
      await sleep(10);
    }
  }
}

const ledgerLines = async () => (await new DreamLedger(dataPath).read()).lines;

/** A model whose consolidation replies are invalid while `broken.value` is true. */
function flakyModel(broken: { value: boolean }): MockLanguageModelV3 {
  const usage = { inputTokens: { total: 40, noCache: 40, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 8, text: 8, reasoning: 0 } };
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: broken.value ? 'I would rather not answer in JSON.' : '{"toDelete": [], "toSave": []}' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    }),
  });
}

describe('reverie.dreams status and ledger (SPEC O5, O6)', () => {
  it('aggregates the ledger per phase, shows the lock, and renders it', async () => {
    const clock = new ManualClock('2026-06-01T00:00:00Z');
    reverie = createReverie({ dataPath, clock }).withMemory().withDreaming().build();
    await reverie.memory!.save({ content: 'same fact' });
    await reverie.memory!.save({ content: 'Same fact.' });
    await reverie.dreams.run({ dryRun: true });
    expect(existsSync(ledgerPath(dataPath))).toBe(false);

    const report = await reverie.dreams.run({ phase: 'rem' });
    expect(new Set(report.passes.map((p) => p.phase))).toEqual(new Set(['rem']));
    expect(report.passes.filter((p) => p.status === 'ok').map((p) => p.name)).toEqual(['memory-consolidation']);
    const status = await reverie.dreams.status();
    expect(status.phases.find((p) => p.phase === 'rem')).toMatchObject({ runs: 1, ok: 1, skipped: report.passes.length - 1, applied: 3 });
    expect(status.phases.find((p) => p.phase === 'light-sleep')).toMatchObject({ runs: 0 });
    expect(status.lastSuccessfulRunAt).toBe('2026-06-01T00:00:00.000Z');
    expect(status.lock).toEqual({ status: 'free' });
    expect(renderDreamStatus(status, 'text')).toContain('memory-consolidation (rem): ok');

    clock.advance(25 * 3_600_000);
    expect((await reverie.dreams.status()).phases.find((p) => p.phase === 'rem')).toMatchObject({ runs: 0 });
    expect((await reverie.dreams.status({ windowHours: 48 })).phases.find((p) => p.phase === 'rem')).toMatchObject({ runs: 1 });
  });

  it('runs one pass by name', async () => {
    reverie = createReverie({ dataPath }).withMemory().withDreaming().build();
    const report = await reverie.dreams.run({ pass: 'archive-retention' });
    expect(report.passes.map((p) => p.name)).toEqual(['archive-retention']);
    expect((await ledgerLines()).map((l) => [l.pass, l.trigger])).toEqual([['archive-retention', 'manual']]);
    await expect(reverie.dreams.run({ phase: 'nap' as never })).rejects.toMatchObject({ code: 'UNKNOWN_PHASE' });
  });
});

describe('reverie.dreams run folders (SPEC O7)', () => {
  it('lists, shows and retries a run whose pass failed, removing the dead letter once it succeeds', async () => {
    const broken = { value: true };
    reverie = createReverie({ dataPath, model: flakyModel(broken) })
      .withMemory()
      .withDreaming()
      .build();
    await reverie.memory!.save({ content: 'The user moved to Porto' });
    await reverie.memory!.save({ content: 'The user now lives in Porto, Portugal' });
    const failed = await reverie.dreams.run();
    expect(failed.passes.find((p) => p.name === 'memory-consolidation')).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('MODEL_REPLY_INVALID'),
    });

    expect(await reverie.dreams.listRuns()).toEqual([expect.objectContaining({ runId: failed.runId, status: 'failed', deadLetter: true })]);
    const shown = await reverie.dreams.show(failed.runId);
    expect(shown.manifest.status).toBe('failed');
    expect(shown.outcomes?.find((o) => o.name === 'memory-consolidation')?.status).toBe('failed');
    expect(shown.summaryPath && existsSync(shown.summaryPath)).toBe(true);
    await expect(reverie.dreams.show('no-such-run')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });

    broken.value = false;
    const retried = await reverie.dreams.retry(failed.runId);
    expect(retried.passes.map((p) => [p.name, p.status])).toEqual([['memory-consolidation', 'ok']]);
    expect(retried.retryOf).toBe(failed.runId);
    expect(existsSync(join(failuresDir(dataPath), `${failed.runId}.json`))).toBe(false);
    expect((await reverie.dreams.show(failed.runId)).deadLetter).toBeUndefined();
    expect((await reverie.dreams.status()).lastSuccessfulRunAt).toBeDefined();
  });
});

describe('reverie.dreams lock (SPEC O3)', () => {
  it('refuses a run, blocks a trigger and shows the holder while another runner holds the lock', async () => {
    reverie = createReverie({ dataPath }).withMemory().withDreaming().build();
    const other = await new DreamLock({ dataPath, clock: { now: () => new Date() } }).acquire('elsewhere');
    await expect(reverie.dreams.run()).rejects.toMatchObject({ code: 'LOCK_HELD' });
    expect(await reverie.dreams.trigger()).toMatchObject({
      triggered: false,
      gate: 'lock',
      reason: expect.stringContaining('run elsewhere'),
    });
    expect(await reverie.dreams.lockState()).toMatchObject({
      status: 'held',
      holder: { runId: 'elsewhere', pid: process.pid },
      stale: false,
    });
    expect((await reverie.dreams.status()).lock).toMatchObject({ status: 'held' });
    await other.release();
    expect((await reverie.dreams.trigger()).triggered).toBe(true);
  });

  it('takes over a lock older than staleLockMinutes', async () => {
    const clock = new ManualClock('2026-06-01T00:00:00Z');
    reverie = createReverie({ dataPath, clock }).withMemory().withDreaming({ staleLockMinutes: 5 }).build();
    await new DreamLock({ dataPath, clock, host: 'another-host' }).acquire('crashed');
    await expect(reverie.dreams.run()).rejects.toMatchObject({ code: 'LOCK_HELD' });
    clock.advance(6 * 60_000);
    expect((await reverie.dreams.run()).passes.length).toBeGreaterThan(0);
  });
});

describe('reverie.dreams.trigger and gates (SPEC O2, O3)', () => {
  it('runs through the gates: time since the last successful run, then sessions', async () => {
    const clock = new ManualClock('2026-06-01T00:00:00Z');
    reverie = createReverie({ dataPath, clock })
      .withMemory()
      .withDreaming({ gates: { minHours: 4, minSessions: 2 } })
      .build();
    expect(await reverie.dreams.trigger()).toMatchObject({ triggered: false, gate: 'sessions' });
    await reverie.dreams.onSessionEnd('s1');
    await reverie.dreams.onSessionEnd('s2');
    const first = await reverie.dreams.trigger({ reason: 'cli' });
    expect(first.triggered).toBe(true);
    expect(first.triggered && first.report.trigger).toBe('cli');

    clock.advance(60_000);
    await reverie.dreams.onSessionEnd('s3');
    await reverie.dreams.onSessionEnd('s4');
    expect(await reverie.dreams.trigger()).toMatchObject({ triggered: false, gate: 'time', reason: expect.stringContaining('needs 4 h') });
    clock.advance(4 * 3_600_000);
    expect((await reverie.dreams.trigger()).triggered).toBe(true);
    expect(await reverie.dreams.trigger()).toMatchObject({ triggered: false, gate: 'time' });
    expect(new Set((await ledgerLines()).map((l) => l.trigger))).toEqual(new Set(['cli', 'manual']));
  });

  it('answers with the disabled gate when dreaming is off or not configured, and records no session', async () => {
    reverie = createReverie({ dataPath }).withMemory().withDreaming({ enabled: false }).build();
    expect(await reverie.dreams.trigger()).toMatchObject({ triggered: false, gate: 'disabled' });
    await reverie.close();
    reverie = createReverie({ dataPath }).withMemory().build();
    expect(await reverie.dreams.trigger()).toMatchObject({ triggered: false, gate: 'disabled' });
    await reverie.dreams.onSessionEnd('s1');
    expect(existsSync(join(dataPath, '_system'))).toBe(false);
    await expect(reverie.dreams.onSessionEnd('  ')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('uses the signal source given in the options', async () => {
    const signalSource = { unpromotedCandidates: vi.fn(async () => 0) };
    reverie = createReverie({ dataPath })
      .withMemory()
      .withDreaming({ gates: { signal: { minUnpromoted: 2 } }, signalSource })
      .build();
    expect(await reverie.dreams.trigger()).toMatchObject({ triggered: false, gate: 'signal' });
    expect(signalSource.unpromotedCandidates).toHaveBeenCalledWith({ minRecallCount: 3, minScore: 0.6 });
    signalSource.unpromotedCandidates.mockResolvedValue(2);
    expect((await reverie.dreams.trigger()).triggered).toBe(true);
  });
});

describe('background triggers through the builder (SPEC O2)', { timeout: 30_000 }, () => {
  it('runs a debounced session-end trigger once sessions stop ending, and close() cancels a pending one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    reverie = createReverie({ dataPath }).withMemory().withDreaming({ initialDelay: '4h', sessionEndDebounce: '2m' }).build();
    await reverie.dreams.start();
    await reverie.dreams.onSessionEnd('s1');
    await vi.advanceTimersByTimeAsync(60_000);
    await reverie.dreams.onSessionEnd('s2');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(existsSync(ledgerPath(dataPath))).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    // One cycle: a line per pass, all of one run.
    await eventually(async () =>
      expect((await ledgerLines()).length).toBe(
        reverie!.dreams.plan().filter((p) => p.reason !== 'not part of this release of the dream engine yet').length,
      ),
    );
    expect(new Set((await ledgerLines()).map((l) => l.runId)).size).toBe(1);
    expect(new Set((await ledgerLines()).map((l) => l.trigger))).toEqual(new Set(['session-end']));

    await reverie.dreams.onSessionEnd('s3');
    await reverie.close();
    const before = (await ledgerLines()).length;
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect((await ledgerLines()).length).toBe(before);
  });

  it('ticks every checkInterval when a gate is set, and each tick goes through the gates', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const clock = new ManualClock('2026-06-01T00:00:00Z');
    const logger = new RecordingLogger();
    reverie = createReverie({ dataPath, clock, logger })
      .withMemory()
      .withDreaming({ initialDelay: '10h', checkInterval: '30m', gates: { minHours: 1 } })
      .build();
    await reverie.dreams.start();
    const tick = async () => {
      clock.advance(30 * 60_000);
      await vi.advanceTimersByTimeAsync(30 * 60_000);
    };
    const runIds = async () => new Set((await ledgerLines()).map((l) => l.runId));
    // The scheduler logs (debug) each cycle it has seen to the end: the next tick may start then.
    const cyclesEnded = () => logger.records.filter((r) => r.level === 'debug' && r.message === 'Dream cycle finished.').length;

    await tick();
    await eventually(() => expect(cyclesEnded()).toBe(1));
    expect((await runIds()).size).toBe(1);
    await tick(); // 30 min since the run: the time gate blocks this tick
    await eventually(() => expect(cyclesEnded()).toBe(2));
    expect((await runIds()).size).toBe(1);
    expect(logger.records.find((r) => r.message === 'Dream trigger blocked.')?.context).toMatchObject({ trigger: 'tick', gate: 'time' });
    await tick(); // an hour since the run
    await eventually(() => expect(cyclesEnded()).toBe(3));
    expect((await runIds()).size).toBe(2);
    expect(new Set((await ledgerLines()).map((l) => l.trigger))).toEqual(new Set(['tick']));
  });

  it('has no ticker without a gate, keeping the interval schedule of SPEC D1', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    reverie = createReverie({ dataPath }).withMemory().withDreaming({ initialDelay: '3h', checkInterval: '30m' }).build();
    await reverie.dreams.start();
    await vi.advanceTimersByTimeAsync(2 * 3_600_000);
    expect(existsSync(ledgerPath(dataPath))).toBe(false);
  });
});

describe('dreaming options for operations', () => {
  it('defaults to no gate, a 30 min ticker, a 10 min session-end debounce and a 60 min stale lock', () => {
    expect(dreamingOptionsSchema.parse({})).toMatchObject({
      gates: {},
      checkInterval: 30 * 60_000,
      sessionEndDebounce: 10 * 60_000,
      staleLockMinutes: 60,
    });
    expect(
      dreamingOptionsSchema.parse({ checkInterval: '1h', sessionEndDebounce: '90s', gates: { minHours: 6, signal: {} } }),
    ).toMatchObject({
      checkInterval: 3_600_000,
      sessionEndDebounce: 90_000,
      gates: { minHours: 6, signal: { minUnpromoted: 1, minRecallCount: 3, minScore: 0.6 } },
    });
  });

  it('names each bad field', () => {
    const build = (options: object) => () =>
      createReverie({ dataPath })
        .withDreaming(options as never)
        .build();
    expect(build({ gates: { minHours: -1 } })).toThrow(/withDreaming\.gates\.minHours/);
    expect(build({ gates: { minSessions: 0 } })).toThrow(/withDreaming\.gates\.minSessions/);
    expect(build({ gates: { signal: { minScore: 3 } } })).toThrow(/withDreaming\.gates\.signal\.minScore/);
    expect(build({ checkInterval: 'soon' })).toThrow(/withDreaming\.checkInterval/);
    expect(build({ checkInterval: 0 })).toThrow(/withDreaming\.checkInterval/);
    expect(build({ sessionEndDebounce: 'later' })).toThrow(/withDreaming\.sessionEndDebounce/);
    expect(build({ staleLockMinutes: 0 })).toThrow(/withDreaming\.staleLockMinutes/);
    expect(build({ signalSource: {} })).toThrow(/withDreaming\.signalSource/);
  });
});
