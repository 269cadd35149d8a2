import { describe, expect, it } from 'vitest';
import type { LedgerLine } from 'reverie';
import { bucketLedger, passesByRun } from '../inspector/src/ledger-buckets';

const NOW = Date.parse('2026-06-08T00:00:00Z');

function line(completedAt: string, changes: Partial<LedgerLine> = {}): LedgerLine {
  return {
    schemaVersion: 1,
    runId: 'a00000000001',
    startedAt: completedAt,
    completedAt,
    durationMs: 10,
    phase: 'rem',
    pass: 'memory-consolidation',
    status: 'ok',
    itemsProcessed: 4,
    applied: 3,
    dryRun: false,
    trigger: 'schedule',
    tokens: { input: 400, output: 60 },
    notes: [],
    ...changes,
  };
}

describe("the inspector's ledger chart: bucketLedger", () => {
  it('totals each phase per bucket by when the pass ended, and leaves out what is outside the window', () => {
    const buckets = bucketLedger(
      [
        line('2026-06-01T01:00:00Z'),
        line('2026-06-01T02:00:00Z', { phase: 'light-sleep', pass: 'importance-decay', applied: 7, tokens: { input: 0, output: 0 } }),
        line('2026-06-07T23:00:00Z', { status: 'failed', applied: 0 }),
        line('2026-05-30T00:00:00Z'),
        line('2026-06-09T00:00:00Z'),
      ],
      { now: NOW, windowHours: 7 * 24, count: 7 },
    );
    expect(buckets).toHaveLength(7);
    expect(buckets[0]!.start).toBe(Date.parse('2026-06-01T00:00:00Z'));
    expect(buckets[6]!.end).toBe(NOW);
    expect(buckets[0]!.phases.rem).toEqual({ passes: 1, applied: 3, failed: 0, tokens: 460 });
    expect(buckets[0]!.phases['light-sleep']).toEqual({ passes: 1, applied: 7, failed: 0, tokens: 0 });
    expect(buckets[6]!.phases.rem).toEqual({ passes: 1, applied: 0, failed: 1, tokens: 460 });
    const passes = buckets.reduce(
      (sum, bucket) => sum + bucket.phases.rem.passes + bucket.phases['light-sleep'].passes + bucket.phases['deep-sleep'].passes,
      0,
    );
    expect(passes).toBe(3);
  });

  it('puts a pass that ended exactly now in the last bucket', () => {
    const buckets = bucketLedger([line('2026-06-08T00:00:00Z')], { now: NOW, windowHours: 24, count: 4 });
    expect(buckets[3]!.phases.rem.passes).toBe(1);
  });

  it('groups the lines by run for the list of runs', () => {
    const runs = passesByRun([
      line('2026-06-01T01:00:00Z'),
      line('2026-06-01T01:00:00Z', { pass: 'promotion', phase: 'deep-sleep' }),
      line('2026-06-02T01:00:00Z', { runId: 'b00000000002' }),
    ]);
    expect([...runs.keys()]).toEqual(['a00000000001', 'b00000000002']);
    expect(runs.get('a00000000001')!.map((entry) => entry.pass)).toEqual(['memory-consolidation', 'promotion']);
  });
});
