import type { LedgerLine } from '@reverie/dream-state';

/** A ledger line with sensible defaults; pass what the test is about. */
export function ledgerLine(overrides: Partial<LedgerLine> = {}): LedgerLine {
  return {
    schemaVersion: 1,
    runId: 'run-a',
    startedAt: '2026-06-01T10:00:00.000Z',
    completedAt: '2026-06-01T10:00:01.000Z',
    durationMs: 1000,
    phase: 'rem',
    pass: 'memory-consolidation',
    status: 'ok',
    itemsProcessed: 10,
    applied: 2,
    dryRun: false,
    trigger: 'schedule',
    tokens: { input: 100, output: 20 },
    notes: [],
    ...overrides,
  };
}

/**
 * Three runs: run-a two days ago (all ok), run-b this morning (decay ok, episodes failed),
 * run-c an hour ago (decay ok, skill-gap skipped, consolidation ok). "now" is 2026-06-03T12:00Z.
 */
export const NOW = new Date('2026-06-03T12:00:00.000Z');
export const THREE_RUNS: LedgerLine[] = [
  ledgerLine({
    runId: 'run-a',
    phase: 'light-sleep',
    pass: 'importance-decay',
    completedAt: '2026-06-01T10:00:00.000Z',
    itemsProcessed: 50,
    applied: 5,
    tokens: { input: 0, output: 0 },
  }),
  ledgerLine({ runId: 'run-a', completedAt: '2026-06-01T10:00:05.000Z' }),
  ledgerLine({
    runId: 'run-b',
    phase: 'light-sleep',
    pass: 'importance-decay',
    completedAt: '2026-06-03T08:00:00.000Z',
    itemsProcessed: 50,
    applied: 1,
    tokens: { input: 0, output: 0 },
  }),
  ledgerLine({
    runId: 'run-b',
    pass: 'episode-extraction',
    status: 'failed',
    error: 'MODEL_REPLY_INVALID: not JSON',
    completedAt: '2026-06-03T08:00:09.000Z',
    itemsProcessed: 0,
    applied: 0,
    tokens: { input: 400, output: 30 },
  }),
  ledgerLine({
    runId: 'run-c',
    phase: 'light-sleep',
    pass: 'importance-decay',
    completedAt: '2026-06-03T11:00:00.000Z',
    itemsProcessed: 50,
    applied: 0,
    tokens: { input: 0, output: 0 },
  }),
  ledgerLine({
    runId: 'run-c',
    pass: 'skill-gap',
    status: 'skipped',
    notes: ['needs a language model'],
    completedAt: '2026-06-03T11:00:00.000Z',
    itemsProcessed: 0,
    applied: 0,
    tokens: { input: 0, output: 0 },
  }),
  ledgerLine({
    runId: 'run-c',
    completedAt: '2026-06-03T11:00:04.000Z',
    itemsProcessed: 12,
    applied: 3,
    tokens: { input: 900, output: 150 },
  }),
];
