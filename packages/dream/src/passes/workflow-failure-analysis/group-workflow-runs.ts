import { type WorkflowExecution } from '@reverie/core';
import { timestampMs } from '@reverie/core/internal';

/** How often one text occurred. */
export interface Counted {
  text: string;
  count: number;
}

/** SPEC D12: the runs of one workflow description in the window. */
export interface WorkflowGroup {
  /** The grouping key: the description trimmed, whitespace collapsed, lower case. */
  key: string;
  /** The description as the most recent run wrote it. */
  description: string;
  runs: number;
  successes: number;
  failures: number;
  /** successes / runs. */
  successRate: number;
  /** The steps that failed, most frequent first. */
  failedSteps: Counted[];
  /** The errors of the failed runs, most frequent first. */
  errors: Counted[];
  /** The skills that produced the failed runs, most failures first. */
  failingSkills: Counted[];
  /** The skills that produced the successful runs, most successes first. */
  succeedingSkills: Counted[];
  /** When each failure happened, oldest first. */
  failureTimes: string[];
  firstRunAt: string;
  lastRunAt: string;
}

/** The key runs are grouped by: the description trimmed, whitespace collapsed, lower case. Pure. */
export function workflowKey(description: string): string {
  return description.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Groups workflow execution records by description (SPEC D12): runs, failures, successes,
 * success rate, which steps failed with which errors, and which skills produced them. Groups
 * come most failures first, then by key. Pure.
 */
export function groupWorkflowRuns(records: readonly WorkflowExecution[]): WorkflowGroup[] {
  const byKey = new Map<string, WorkflowExecution[]>();
  for (const record of records) {
    const key = workflowKey(record.description);
    const list = byKey.get(key);
    if (list) list.push(record);
    else byKey.set(key, [record]);
  }
  const groups = [...byKey].map(([key, list]) =>
    summarise(
      key,
      [...list].sort((a, b) => timestampMs(a.timestamp) - timestampMs(b.timestamp)),
    ),
  );
  return groups.sort((a, b) => b.failures - a.failures || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function summarise(key: string, runs: readonly WorkflowExecution[]): WorkflowGroup {
  const failed = runs.filter((run) => !run.success);
  const succeeded = runs.filter((run) => run.success);
  return {
    key,
    description: runs.at(-1)!.description.trim(),
    runs: runs.length,
    successes: succeeded.length,
    failures: failed.length,
    successRate: succeeded.length / runs.length,
    failedSteps: count(failed.map((run) => run.failedStep?.trim())),
    errors: count(failed.map((run) => run.error?.trim())),
    failingSkills: count(failed.map((run) => run.skill)),
    succeedingSkills: count(succeeded.map((run) => run.skill)),
    failureTimes: failed.map((run) => run.timestamp),
    firstRunAt: runs[0]!.timestamp,
    lastRunAt: runs.at(-1)!.timestamp,
  };
}

/** Distinct non-empty texts with their counts, most frequent first, ties in order of first appearance. */
function count(texts: ReadonlyArray<string | undefined>): Counted[] {
  const counts = new Map<string, number>();
  for (const text of texts) if (text !== undefined && text !== '') counts.set(text, (counts.get(text) ?? 0) + 1);
  return [...counts].map(([text, n]) => ({ text, count: n })).sort((a, b) => b.count - a.count);
}
