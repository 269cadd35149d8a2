import type { LedgerLine } from 'reverie';
import { type Phase, PHASES } from './types';

export interface PhaseTotals {
  passes: number;
  applied: number;
  failed: number;
  tokens: number;
}

export interface LedgerBucket {
  /** Start of the bucket (ms since the epoch); it ends where the next starts. */
  start: number;
  end: number;
  phases: Record<Phase, PhaseTotals>;
}

const empty = (): PhaseTotals => ({ passes: 0, applied: 0, failed: 0, tokens: 0 });

/**
 * The ledger's lines over the last `windowHours` before `now`, in `count` equal buckets by the
 * time each pass ended, totalled per phase: passes, operations applied, failures, tokens (in and
 * out). Lines outside the window are left out. Pure.
 */
export function bucketLedger(
  lines: readonly LedgerLine[],
  { now, windowHours, count }: { now: number; windowHours: number; count: number },
): LedgerBucket[] {
  const width = (windowHours * 3_600_000) / count;
  const start = now - windowHours * 3_600_000;
  const buckets: LedgerBucket[] = Array.from({ length: count }, (_, index) => ({
    start: start + index * width,
    end: start + (index + 1) * width,
    phases: Object.fromEntries(PHASES.map((phase) => [phase, empty()])) as Record<Phase, PhaseTotals>,
  }));
  for (const line of lines) {
    const at = Date.parse(line.completedAt);
    if (!(at >= start && at <= now)) continue;
    const bucket = buckets[Math.min(count - 1, Math.floor((at - start) / width))]!;
    const totals = bucket.phases[line.phase];
    totals.passes += 1;
    totals.applied += line.applied;
    totals.failed += line.status === 'failed' ? 1 : 0;
    totals.tokens += line.tokens.input + line.tokens.output;
  }
  return buckets;
}

/** Per run, its passes as the ledger saw them (status, refusals, tokens). Pure. */
export function passesByRun(lines: readonly LedgerLine[]): Map<string, LedgerLine[]> {
  const runs = new Map<string, LedgerLine[]>();
  for (const line of lines) {
    const passes = runs.get(line.runId) ?? [];
    passes.push(line);
    runs.set(line.runId, passes);
  }
  return runs;
}
