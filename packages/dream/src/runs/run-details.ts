import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ReverieError } from '@reverie/core';
import type { CycleReport, PassOutcome } from '../engine/dream-types';
import { type DeadLetter, listDeadLetters, readDeadLetter } from './dead-letter';
import { RunFolder, type RunManifest } from './run-folder';

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
  runFolder: string;
}

/** One run as `show` shows it (SPEC O7). */
export interface RunDetails {
  manifest: RunManifest;
  runFolder: string;
  /** The pass outcomes of the cycle report; absent while the run is still running or when a crash cut it short. */
  outcomes?: PassOutcome[];
  /** The full cycle report, when the run finished. */
  report?: CycleReport;
  /** The markdown summary, when the run finished. */
  summaryPath?: string;
  /** The dead letter, when a pass failed and has not been retried successfully. */
  deadLetter?: DeadLetter;
}

/** Every run folder, newest first. */
export async function listRunSummaries(dataPath: string): Promise<RunSummary[]> {
  const letters = new Set(await listDeadLetters(dataPath));
  return (await RunFolder.list(dataPath))
    .map(({ dir, manifest }): RunSummary => ({
      runId: manifest.runId,
      status: manifest.status,
      trigger: manifest.trigger,
      startedAt: manifest.startedAt,
      ...(manifest.completedAt === undefined ? {} : { completedAt: manifest.completedAt }),
      passes: manifest.passes,
      deadLetter: letters.has(manifest.runId),
      ...(manifest.retryOf === undefined ? {} : { retryOf: manifest.retryOf }),
      runFolder: dir,
    }))
    .sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt) || b.runId.localeCompare(a.runId));
}

/** The manifest, outcomes, summary and dead letter of one run; RUN_NOT_FOUND when there is no such run. */
export async function readRunDetails(dataPath: string, runId: string): Promise<RunDetails> {
  const folder = await RunFolder.open(dataPath, runId);
  if (!folder) throw runNotFound(dataPath, runId);
  const report = await readFile(join(folder.dir, 'report.json'), 'utf8')
    .then((text) => JSON.parse(text) as CycleReport)
    .catch(() => undefined);
  const summaryPath = join(folder.dir, 'summary.md');
  const hasSummary = await readFile(summaryPath, 'utf8').then(
    () => true,
    () => false,
  );
  const deadLetter = await readDeadLetter(dataPath, runId);
  return {
    manifest: folder.state,
    runFolder: folder.dir,
    ...(report ? { report, outcomes: report.passes } : {}),
    ...(hasSummary ? { summaryPath } : {}),
    ...(deadLetter ? { deadLetter } : {}),
  };
}

export function runNotFound(dataPath: string, runId: string): ReverieError {
  return new ReverieError('RUN_NOT_FOUND', `No dream run ${JSON.stringify(runId)} in ${dataPath}: list the runs with listRuns() (or look in _system/dreams/runs/).`, {
    details: { runId },
  });
}
