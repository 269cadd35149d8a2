import type { LedgerLine } from '@reverie/dream-state';
import type { PassOutcome } from './dream-types';

/** The ledger line of a pass outcome. */
export function ledgerLineFor(
  outcome: PassOutcome,
  run: { runId: string; trigger: string; startedAt: Date; completedAt: Date },
): LedgerLine {
  const common = {
    schemaVersion: 1 as const,
    runId: run.runId,
    startedAt: run.startedAt.toISOString(),
    completedAt: run.completedAt.toISOString(),
    phase: outcome.phase,
    pass: outcome.name,
    dryRun: false as const,
    trigger: run.trigger,
  };
  if (outcome.status === 'skipped') {
    return {
      ...common,
      status: 'skipped',
      durationMs: 0,
      itemsProcessed: 0,
      applied: 0,
      tokens: { input: 0, output: 0 },
      notes: [outcome.reason],
    };
  }
  return {
    ...common,
    status: outcome.status,
    durationMs: Math.max(0, Math.round(outcome.durationMs)),
    itemsProcessed: outcome.itemsProcessed,
    applied: outcome.applied,
    tokens: outcome.tokens,
    notes: outcome.notes,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    ...(outcome.warning === undefined ? {} : { warning: outcome.warning }),
    ...(outcome.refusals.length === 0 ? {} : { refusals: outcome.refusals.length }),
    ...(outcome.misbehaviour === undefined ? {} : { misbehaviour: outcome.misbehaviour.length }),
    ...(typeof outcome.details?.pendingRetries === 'number' ? { pendingRetries: outcome.details.pendingRetries } : {}),
  };
}
