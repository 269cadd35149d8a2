import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DreamLedger, ledgerPath } from '@reverie/file-store/internal';
import { NOW, THREE_RUNS, ledgerLine } from './__fixtures__/ledger-lines';
import { dreamStatusSchema, lastSuccessfulRun, summariseLedger } from './dream-status';
import { readDreamStatus } from './read-dream-status';
import { renderDreamStatus } from './render-dream-status';

describe('summariseLedger', () => {
  it('counts warnings, refusals and misbehaviour, and a warning still counts as a run that completed', () => {
    const lines = [
      ledgerLine({
        runId: 'run-w',
        completedAt: '2026-06-03T10:00:00.000Z',
        status: 'warning',
        warning: 'the model proposed 3 change(s) and the guards accepted none',
        applied: 0,
        refusals: 4,
        misbehaviour: 1,
        pendingRetries: 6,
      }),
    ];
    const status = summariseLedger(lines, { now: NOW });
    expect(status.phases[1]).toMatchObject({
      runs: 1,
      ok: 0,
      warnings: 1,
      failed: 0,
      refusals: 4,
      misbehaviour: 1,
      lastSuccessAt: '2026-06-03T10:00:00.000Z',
    });
    expect(status.lastSuccessfulRunAt).toBe('2026-06-03T10:00:00.000Z');
    const text = renderDreamStatus(status, 'text');
    expect(text).toContain('warnings 1');
    expect(text).toContain('refused 4, misbehaviour 1');
    expect(text).toContain('6 refused merge(s) pending a retry');
    expect(text).toContain('warning: the model proposed 3 change(s) and the guards accepted none');
    expect(renderDreamStatus(status, 'markdown')).toContain('| rem | 1 | 0 | 1 | 0 | 0 | 10 | 0 | 4 | 1 |');
  });

  it('counts pass runs per phase within the window, and last times over the whole ledger', () => {
    const status = summariseLedger(THREE_RUNS, { now: NOW });
    expect(status.windowHours).toBe(24);
    expect(status.since).toBe('2026-06-02T12:00:00.000Z');
    const [light, rem, deep] = status.phases;
    expect(light).toEqual({
      phase: 'light-sleep',
      runs: 2,
      ok: 2,
      warnings: 0,
      failed: 0,
      skipped: 0,
      itemsProcessed: 100,
      applied: 1,
      tokens: { input: 0, output: 0 },
      refusals: 0,
      misbehaviour: 0,
      lastRunAt: '2026-06-03T11:00:00.000Z',
      lastSuccessAt: '2026-06-03T11:00:00.000Z',
    });
    expect(rem).toMatchObject({
      runs: 2,
      ok: 1,
      failed: 1,
      skipped: 1,
      itemsProcessed: 12,
      applied: 3,
      tokens: { input: 1300, output: 180 },
    });
    expect(deep).toEqual({
      phase: 'deep-sleep',
      runs: 0,
      ok: 0,
      warnings: 0,
      failed: 0,
      skipped: 0,
      itemsProcessed: 0,
      applied: 0,
      tokens: { input: 0, output: 0 },
      refusals: 0,
      misbehaviour: 0,
    });
    expect(status.lastRunAt).toBe('2026-06-03T11:00:04.000Z');
    expect(dreamStatusSchema.parse(status)).toEqual(status);
  });

  it('widens the window on request', () => {
    const status = summariseLedger(THREE_RUNS, { now: NOW, windowHours: 72 });
    expect(status.phases[0]).toMatchObject({ runs: 3, ok: 3 });
  });

  it('gives the last run of each pass, in cycle order, with its error or skip reason', () => {
    const status = summariseLedger(THREE_RUNS, { now: NOW });
    expect(status.passes.map((p) => [p.pass, p.lastRun.status, p.lastRun.runId])).toEqual([
      ['importance-decay', 'ok', 'run-c'],
      ['memory-consolidation', 'ok', 'run-c'],
      ['episode-extraction', 'failed', 'run-b'],
      ['skill-gap', 'skipped', 'run-c'],
    ]);
    expect(status.passes.find((p) => p.pass === 'episode-extraction')!.lastSuccessAt).toBeUndefined();
  });

  it('takes the last successful run to be the latest with an ok pass and no failed pass', () => {
    expect(lastSuccessfulRun(THREE_RUNS)).toBe('2026-06-03T11:00:04.000Z');
    expect(lastSuccessfulRun(THREE_RUNS.filter((l) => l.runId !== 'run-c'))).toBe('2026-06-01T10:00:05.000Z');
    expect(lastSuccessfulRun([ledgerLine({ status: 'skipped' })])).toBeUndefined();
    expect(lastSuccessfulRun([])).toBeUndefined();
  });

  it('reports an empty ledger as never run', () => {
    const status = summariseLedger([], { now: NOW });
    expect(status.lastRunAt).toBeUndefined();
    expect(status.lastSuccessfulRunAt).toBeUndefined();
    expect(status.passes).toEqual([]);
    expect(status.phases.map((p) => p.runs)).toEqual([0, 0, 0]);
  });
});

describe('readDreamStatus', () => {
  let dataPath: string;
  beforeEach(() => {
    dataPath = mkdtempSync(join(tmpdir(), 'reverie-status-'));
  });
  afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

  it('reads the ledger of a data directory, counting the torn lines it skipped', async () => {
    const ledger = new DreamLedger(dataPath);
    for (const line of THREE_RUNS) await ledger.append(line);
    appendFileSync(ledgerPath(dataPath), '{"schemaVersion":1,"ru');
    const status = await readDreamStatus({ ledger, now: NOW, windowHours: 2, lock: { status: 'free' } });
    expect(status.invalidLines).toBe(1);
    expect(status.phases[1]).toMatchObject({ runs: 1, ok: 1, skipped: 1, failed: 0 });
    expect(status.lock).toEqual({ status: 'free' });
  });

  it('answers for a data directory that never dreamt', async () => {
    const status = await readDreamStatus({ ledger: new DreamLedger(join(dataPath, 'nothing-here')), now: NOW });
    expect(status.invalidLines).toBe(0);
    expect(status.passes).toEqual([]);
  });
});
