import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { RunFolder } from './run-folder';
import { runsDir } from '../dream-state-paths';
import type { DreamRunListing, DreamRunStore, NewDreamRun } from '@reverie/dream-state';

/** Runs as folders, `_system/dreams/runs/<date>-<runId>/` (see `RunFolder`). */
export class FileRunStore implements DreamRunStore {
  constructor(private readonly dataPath: string) {}

  create(run: NewDreamRun): Promise<RunFolder> {
    return RunFolder.create(this.dataPath, run.runId, run.trigger, new Date(run.startedAt), {
      ...(run.retryOf === undefined ? {} : { retryOf: run.retryOf }),
      ...(run.planId === undefined ? {} : { planId: run.planId }),
    });
  }

  open(runId: string): Promise<RunFolder | undefined> {
    return RunFolder.open(this.dataPath, runId);
  }

  async list(): Promise<DreamRunListing[]> {
    return (await RunFolder.list(this.dataPath)).map(({ dir, manifest }) => ({ manifest, location: dir }));
  }

  async remove(runId: string): Promise<void> {
    const names = await readdir(runsDir(this.dataPath)).catch(() => [] as string[]);
    for (const name of names.filter((candidate) => candidate.endsWith(`-${runId}`))) {
      await rm(join(runsDir(this.dataPath), name), { recursive: true, force: true });
    }
  }
}
