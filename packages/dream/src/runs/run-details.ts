import { join } from 'node:path';
import { ReverieError } from '@reverie/core';
import type { CycleReport, PassOutcome } from '../engine/dream-types';
import type { DeadLetter, DreamStateStore, RunManifest } from '@reverie/dream-state';

/** One run as `listRuns` shows it. */
export interface RunSummary {
  runId: string;
  status: RunManifest['status'];
  trigger: string;
  startedAt: string;
  completedAt?: string;
  /** Passes that planned something (each has a plan file). */
  passes: string[];
  /** True when the run has a dead letter, i.e. `retry` has something to do. */
  deadLetter: boolean;
  retryOf?: string;
  /** Where the run's records are (its folder, for files). */
  runFolder?: string;
}

/** One run as `show` shows it (SPEC O7). */
export interface RunDetails {
  manifest: RunManifest;
  /** Where the run's records are (its folder, for files). */
  runFolder?: string;
  /** The pass outcomes of the cycle report; absent while the run is still running or when a crash cut it short. */
  outcomes?: PassOutcome[];
  /** The full cycle report, when the run finished. */
  report?: CycleReport;
  /** The markdown summary, when the run finished. */
  summary?: string;
  /** Where that summary is (`summary.md` in the run folder, for files). */
  summaryPath?: string;
  /** The dead letter, when a pass failed and has not been retried successfully. */
  deadLetter?: DeadLetter;
}

/** Every run, newest first. */
export async function listRunSummaries(state: Pick<DreamStateStore, 'runs' | 'deadLetters'>): Promise<RunSummary[]> {
  const letters = new Set(await state.deadLetters.list());
  return (await state.runs.list())
    .map(
      ({ location, manifest }): RunSummary => ({
        runId: manifest.runId,
        status: manifest.status,
        trigger: manifest.trigger,
        startedAt: manifest.startedAt,
        ...(manifest.completedAt === undefined ? {} : { completedAt: manifest.completedAt }),
        passes: manifest.passes,
        deadLetter: letters.has(manifest.runId),
        ...(manifest.retryOf === undefined ? {} : { retryOf: manifest.retryOf }),
        ...(location === undefined ? {} : { runFolder: location }),
      }),
    )
    .sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt) || b.runId.localeCompare(a.runId));
}

/** The manifest, outcomes, summary and dead letter of one run; RUN_NOT_FOUND when there is no such run. */
export async function readRunDetails(
  state: Pick<DreamStateStore, 'runs' | 'deadLetters' | 'location'>,
  runId: string,
): Promise<RunDetails> {
  const run = await state.runs.open(runId);
  if (!run) throw runNotFound(state, runId);
  const reportText = await run.readArtifact('report.json');
  const report = reportText === undefined ? undefined : (safeJson(reportText) as CycleReport | undefined);
  const summary = await run.readArtifact('summary.md');
  const deadLetter = await state.deadLetters.read(runId);
  return {
    manifest: run.state,
    ...(run.location === undefined ? {} : { runFolder: run.location }),
    ...(report ? { report, outcomes: report.passes } : {}),
    ...(summary === undefined ? {} : { summary, ...(run.location === undefined ? {} : { summaryPath: join(run.location, 'summary.md') }) }),
    ...(deadLetter ? { deadLetter } : {}),
  };
}

export function runNotFound(state: Pick<DreamStateStore, 'location'>, runId: string): ReverieError {
  const where = state.location === undefined ? '' : ` in ${state.location}`;
  return new ReverieError(
    'RUN_NOT_FOUND',
    `No dream run ${JSON.stringify(runId)}${where}: list the runs with listRuns() (reverie dream show latest shows the newest).`,
    {
      details: { runId },
    },
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
