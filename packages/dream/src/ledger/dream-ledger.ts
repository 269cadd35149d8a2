import type { PassOutcome } from '../engine/dream-types';
import { JsonlFile } from '../jsonl/jsonl-file';
import { ledgerPath } from '../runs/run-paths';
import { type JsonlContents, type LedgerLine, ledgerLineSchema } from '@reverie/dream-state';
import type { AppendOnlyLog } from '@reverie/dream-state';

/**
 * The telemetry ledger at `<dataPath>/_system/dreams/ledger.jsonl` (SPEC O5): the engine appends
 * one line at the end of every pass of every real run; `status` reads it back.
 */
export class DreamLedger implements AppendOnlyLog<LedgerLine> {
  private readonly file: JsonlFile<LedgerLine>;

  constructor(dataPath: string) {
    this.file = new JsonlFile(ledgerPath(dataPath), ledgerLineSchema);
  }

  get location(): string {
    return this.file.path;
  }

  append(line: LedgerLine): Promise<void> {
    return this.file.append(line);
  }

  /** Every valid line, oldest first; torn or invalid lines are skipped and counted. */
  read(): Promise<JsonlContents<LedgerLine>> {
    return this.file.read();
  }
}

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
    return { ...common, status: 'skipped', durationMs: 0, itemsProcessed: 0, applied: 0, tokens: { input: 0, output: 0 }, notes: [outcome.reason] };
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
