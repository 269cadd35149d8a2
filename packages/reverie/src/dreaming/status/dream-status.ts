import { z } from 'zod';
import { DREAM_PHASES, dreamPhaseSchema, type LedgerLine, ledgerLineSchema, lockStatusSchema } from '@reverie/dream-state';

const HOUR_MS = 3_600_000;
const tokensSchema = z.object({ input: z.number(), output: z.number() });

export const phaseStatusSchema = z.object({
  phase: dreamPhaseSchema,
  /** Runs (distinct run ids) that ran a pass of this phase within the window. */
  runs: z.number().int().nonnegative(),
  /** Pass runs of this phase within the window, by outcome. */
  ok: z.number().int().nonnegative(),
  /** Pass runs where the model proposed changes and none was applied. */
  warnings: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  itemsProcessed: z.number().int().nonnegative(),
  applied: z.number().int().nonnegative(),
  tokens: tokensSchema,
  /** What the guards refused within the window, and replies refused whole for breaking a budget. */
  refusals: z.number().int().nonnegative(),
  misbehaviour: z.number().int().nonnegative(),
  /** The latest pass run of this phase, any time (not only within the window). */
  lastRunAt: z.string().optional(),
  /** The latest ok pass run of this phase, any time. */
  lastSuccessAt: z.string().optional(),
});
export type PhaseStatus = z.infer<typeof phaseStatusSchema>;

export const passStatusSchema = z.object({
  pass: z.string(),
  phase: dreamPhaseSchema,
  /** The pass's latest ledger line, any time. */
  lastRun: ledgerLineSchema,
  /** When the pass last ended ok, any time. */
  lastSuccessAt: z.string().optional(),
});
export type PassStatus = z.infer<typeof passStatusSchema>;

/** What `status` reports (SPEC O5): the ledger aggregated per phase over a window. */
export const dreamStatusSchema = z.object({
  generatedAt: z.string(),
  windowHours: z.number().positive(),
  /** Start of the window. */
  since: z.string(),
  /** light-sleep, rem, deep-sleep, always all three, in cycle order. */
  phases: z.array(phaseStatusSchema),
  /** Every pass the ledger knows, in cycle order of phases, with its last run. */
  passes: z.array(passStatusSchema),
  /** End of the latest run, any time. */
  lastRunAt: z.string().optional(),
  /** End of the latest successful run (one with an ok pass and no failed pass), any time: what the time gate measures from. */
  lastSuccessfulRunAt: z.string().optional(),
  /** Ledger lines skipped because they were torn or invalid. */
  invalidLines: z.number().int().nonnegative(),
  lock: lockStatusSchema.optional(),
});
export type DreamStatus = z.infer<typeof dreamStatusSchema>;

export interface SummariseLedgerOptions {
  now: Date;
  /** Hours back from `now` that the per-phase counts cover (default 24). */
  windowHours?: number;
  invalidLines?: number;
}

/**
 * Aggregates ledger lines (SPEC O5). Pure: counts cover the window, last-run times cover the
 * whole ledger.
 */
export function summariseLedger(lines: readonly LedgerLine[], options: SummariseLedgerOptions): DreamStatus {
  const windowHours = options.windowHours ?? 24;
  const since = new Date(options.now.getTime() - windowHours * HOUR_MS);
  const inWindow = lines.filter(
    (line) => Date.parse(line.completedAt) >= since.getTime() && Date.parse(line.completedAt) <= options.now.getTime(),
  );
  const latest = (values: Iterable<string>) => {
    let best: string | undefined;
    for (const value of values) if (best === undefined || Date.parse(value) > Date.parse(best)) best = value;
    return best;
  };

  const phases = DREAM_PHASES.map((phase): PhaseStatus => {
    const mine = inWindow.filter((line) => line.phase === phase);
    const all = lines.filter((line) => line.phase === phase);
    return {
      phase,
      runs: new Set(mine.map((line) => line.runId)).size,
      ok: mine.filter((line) => line.status === 'ok').length,
      warnings: mine.filter((line) => line.status === 'warning').length,
      failed: mine.filter((line) => line.status === 'failed').length,
      skipped: mine.filter((line) => line.status === 'skipped').length,
      itemsProcessed: sum(mine.map((line) => line.itemsProcessed)),
      applied: sum(mine.map((line) => line.applied)),
      tokens: { input: sum(mine.map((line) => line.tokens.input)), output: sum(mine.map((line) => line.tokens.output)) },
      refusals: sum(mine.map((line) => line.refusals ?? 0)),
      misbehaviour: sum(mine.map((line) => line.misbehaviour ?? 0)),
      ...optional('lastRunAt', latest(all.map((line) => line.completedAt))),
      ...optional('lastSuccessAt', latest(all.filter((line) => completedWell(line)).map((line) => line.completedAt))),
    };
  });

  const byPass = new Map<string, LedgerLine[]>();
  for (const line of lines) byPass.set(line.pass, [...(byPass.get(line.pass) ?? []), line]);
  const passes = [...byPass.entries()]
    .map(([pass, own]): PassStatus => {
      const lastRun = own.reduce((a, b) => (Date.parse(b.completedAt) >= Date.parse(a.completedAt) ? b : a));
      return {
        pass,
        phase: lastRun.phase,
        lastRun,
        ...optional('lastSuccessAt', latest(own.filter(completedWell).map((l) => l.completedAt))),
      };
    })
    .sort((a, b) => DREAM_PHASES.indexOf(a.phase) - DREAM_PHASES.indexOf(b.phase));

  return {
    generatedAt: options.now.toISOString(),
    windowHours,
    since: since.toISOString(),
    phases,
    passes,
    ...optional('lastRunAt', latest(lines.map((line) => line.completedAt))),
    ...optional('lastSuccessfulRunAt', lastSuccessfulRun(lines)),
    invalidLines: options.invalidLines ?? 0,
  };
}

/** End of the latest run with at least one ok pass and no failed pass. */
export function lastSuccessfulRun(lines: readonly LedgerLine[]): string | undefined {
  const runs = new Map<string, { ok: boolean; failed: boolean; end: number }>();
  for (const line of lines) {
    const run = runs.get(line.runId) ?? { ok: false, failed: false, end: 0 };
    run.ok ||= completedWell(line);
    run.failed ||= line.status === 'failed';
    run.end = Math.max(run.end, Date.parse(line.completedAt));
    runs.set(line.runId, run);
  }
  const ends = [...runs.values()].filter((run) => run.ok && !run.failed).map((run) => run.end);
  return ends.length === 0 ? undefined : new Date(Math.max(...ends)).toISOString();
}

/** A pass that ran to its end: ok, or a warning (it ran, the guards refused what the model proposed). */
function completedWell(line: LedgerLine): boolean {
  return line.status === 'ok' || line.status === 'warning';
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}
