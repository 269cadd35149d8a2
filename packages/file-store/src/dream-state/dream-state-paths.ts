import { join } from 'node:path';

/** Where the dream cycle keeps its own files. `_system/` is never recalled (SPEC O7). */
export function dreamsDir(dataPath: string): string {
  return join(dataPath, '_system', 'dreams');
}

export function runsDir(dataPath: string): string {
  return join(dreamsDir(dataPath), 'runs');
}

export function failuresDir(dataPath: string): string {
  return join(dreamsDir(dataPath), 'failures');
}

export function cursorsDir(dataPath: string): string {
  return join(dreamsDir(dataPath), 'cursors');
}

/** `<date>-<runId>`: folders sort by day, and the id finds them. */
export function runFolderName(runId: string, startedAt: Date): string {
  return `${startedAt.toISOString().slice(0, 10)}-${runId}`;
}

/** The telemetry ledger: one JSON line per pass run (SPEC O5). */
export function ledgerPath(dataPath: string): string {
  return join(dreamsDir(dataPath), 'ledger.jsonl');
}

/** Completed agent sessions, for the session gate (SPEC O3). */
export function sessionsPath(dataPath: string): string {
  return join(dreamsDir(dataPath), 'sessions.jsonl');
}

/** The lock that keeps one runner per data directory, across processes (SPEC O3). */
export function lockPath(dataPath: string): string {
  return join(dreamsDir(dataPath), 'lock');
}

/** What searches returned, one JSON line per recalled entry (SPEC O4). */
export function recallEventsPath(dataPath: string): string {
  return join(dreamsDir(dataPath), 'recall-events.jsonl');
}

/** The recall events folded per entry by the recall-signals pass (SPEC O4). */
export function recallSignalsPath(dataPath: string): string {
  return join(dreamsDir(dataPath), 'recall-signals.json');
}

/** Plans saved by dry runs, one folder per plan, for `apply` (SPEC B11: review before apply). */
export function plansDir(dataPath: string): string {
  return join(dreamsDir(dataPath), 'plans');
}
