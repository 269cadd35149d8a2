import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemoryLongTermMemory, ManualClock, RecordingLogger } from '@reverie/core';
import { DreamEngine } from '../src/engine/dream-engine';
import type { DreamPass, DreamServices } from '../src/engine/dream-types';
import { DreamLedger, failuresDir, FileDeadLetterStore } from '@reverie/file-store/internal';
import { FileDreamStateStore } from '@reverie/file-store';

let dataPath: string;
let clock: ManualClock;
let services: DreamServices;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-run-records-'));
  clock = new ManualClock('2026-06-01T00:00:00.000Z');
  services = {
    dataPath,
    clock,
    state: new FileDreamStateStore({ dataPath, clock }),
    logger: new RecordingLogger(),
    memory: new InMemoryLongTermMemory({ clock }),
  };
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

/** A pass that fails while `broken.value` is true, and saves one entry when it works. */
function flaky(name: string, broken: { value: boolean }): DreamPass {
  return {
    name,
    phase: 'rem',
    requires: ['memory'],
    model: 'none',
    async plan(context) {
      if (broken.value) throw new Error(`${name}: model unavailable`);
      const entry = await context.services.memory!.save({ content: `${name} ran` });
      return { operations: [], itemsProcessed: 1, notes: [`saw ${entry.id}`], refusals: [] };
    },
  };
}
const steady: DreamPass = {
  name: 'importance-decay',
  phase: 'light-sleep',
  requires: [],
  model: 'none',
  async plan() {
    return { operations: [], itemsProcessed: 3, notes: ['steady'], refusals: [] };
  },
};

describe('show', () => {
  it('returns the manifest, the pass outcomes and the summary path of a run', async () => {
    const engine = new DreamEngine(services, [steady, flaky('episode-extraction', { value: true })]);
    const report = await engine.run({ trigger: 'manual' });
    const shown = await engine.show(report.runId);
    expect(shown.manifest).toMatchObject({ runId: report.runId, status: 'failed', trigger: 'manual' });
    expect(shown.outcomes?.map((o) => [o.name, o.status])).toEqual([
      ['importance-decay', 'ok'],
      ['episode-extraction', 'failed'],
    ]);
    expect(shown.summaryPath).toBe(join(report.runFolder!, 'summary.md'));
    expect(existsSync(shown.summaryPath!)).toBe(true);
    expect(shown.deadLetter?.passes).toEqual([{ name: 'episode-extraction', error: 'episode-extraction: model unavailable' }]);
  });

  it('fails with RUN_NOT_FOUND for an unknown run', async () => {
    const engine = new DreamEngine(services, [steady]);
    await expect(engine.show('nosuchrun')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND', details: { runId: 'nosuchrun' } });
  });
});

describe('listRuns', () => {
  it('lists runs newest first, marking those with a dead letter', async () => {
    const broken = { value: true };
    const engine = new DreamEngine(services, [steady, flaky('episode-extraction', broken)]);
    const first = await engine.run({ trigger: 'schedule' });
    clock.advance(60_000);
    broken.value = false;
    const second = await engine.run({ trigger: 'manual' });
    expect(await engine.listRuns()).toEqual([
      expect.objectContaining({ runId: second.runId, status: 'complete', trigger: 'manual', deadLetter: false }),
      expect.objectContaining({ runId: first.runId, status: 'failed', trigger: 'schedule', deadLetter: true }),
    ]);
  });

  it('is empty before the first run', async () => {
    expect(await new DreamEngine(services, [steady]).listRuns()).toEqual([]);
  });
});

describe('retry', () => {
  it('re-runs only the failed passes, and removes the dead letter once they succeed', async () => {
    const broken = { value: true };
    const engine = new DreamEngine(services, [steady, flaky('episode-extraction', broken), flaky('skill-gap', broken)]);
    const failed = await engine.run({ trigger: 'schedule' });
    expect(readdirSync(failuresDir(dataPath))).toEqual([`${failed.runId}.json`]);

    const stillBroken = await engine.retry(failed.runId);
    expect(stillBroken.passes.map((p) => [p.name, p.status])).toEqual([
      ['episode-extraction', 'failed'],
      ['skill-gap', 'failed'],
    ]);
    expect(stillBroken).toMatchObject({ trigger: 'retry', retryOf: failed.runId });
    // The failed retry is recorded on the original dead letter, not as a second one.
    expect(readdirSync(failuresDir(dataPath))).toEqual([`${failed.runId}.json`]);
    expect(await new FileDeadLetterStore(dataPath).read(failed.runId)).toMatchObject({
      retries: 1,
      lastRetry: {
        runId: stillBroken.runId,
        passes: [
          { name: 'episode-extraction', status: 'failed' },
          { name: 'skill-gap', status: 'failed' },
        ],
      },
    });

    broken.value = false;
    const fixed = await engine.retry(failed.runId);
    expect(fixed.passes.map((p) => [p.name, p.status])).toEqual([
      ['episode-extraction', 'ok'],
      ['skill-gap', 'ok'],
    ]);
    expect(readdirSync(failuresDir(dataPath))).toEqual([]);
    expect((await engine.show(fixed.runId)).manifest.retryOf).toBe(failed.runId);
    const ledger = (await new DreamLedger(dataPath).read()).lines;
    expect(ledger.filter((line) => line.runId === fixed.runId).map((line) => [line.pass, line.trigger, line.status])).toEqual([
      ['episode-extraction', 'retry', 'ok'],
      ['skill-gap', 'retry', 'ok'],
    ]);
    await expect(engine.retry(failed.runId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('fails with RUN_NOT_FOUND for an unknown run and NOT_FOUND for a run without failures', async () => {
    const engine = new DreamEngine(services, [steady]);
    await expect(engine.retry('nosuchrun')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
    const ok = await engine.run({ trigger: 'manual' });
    await expect(engine.retry(ok.runId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
