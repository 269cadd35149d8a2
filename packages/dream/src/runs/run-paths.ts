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
