import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { RunFolder } from '../../runs/run-folder';
import { failuresDir } from '../../runs/run-paths';
import type { DreamPass, DreamServices, PassContext, PassPlan } from '../../engine/dream-types';
import { archiveRetentionOptionsSchema } from './archive-retention-options';

const DAY_MS = 86_400_000;

/**
 * SPEC O7/O8, deep sleep: purges run folders and dead letters past the retention. After the
 * purge a run can no longer be undone; that is the point of a retention. Runs still marked
 * running are never purged.
 */
export class ArchiveRetentionPass implements DreamPass {
  readonly name = 'archive-retention';
  readonly phase = 'deep-sleep' as const;
  readonly requires = [] as const;
  readonly model = 'none' as const;
  private readonly retentionDays: number;

  constructor(options: z.input<typeof archiveRetentionOptionsSchema> = {}) {
    this.retentionDays = archiveRetentionOptionsSchema.parse(options).retentionDays;
  }

  async plan(context: PassContext): Promise<PassPlan> {
    const { dataPath } = context.services;
    const cutoff = context.now().getTime() - this.retentionDays * DAY_MS;
    const runs = (await RunFolder.list(dataPath)).filter(
      ({ manifest }) => manifest.status !== 'running' && manifest.runId !== context.runId && Date.parse(manifest.completedAt ?? manifest.startedAt) < cutoff,
    );
    const failures: string[] = [];
    for (const name of await readdir(failuresDir(dataPath)).catch(() => [] as string[])) {
      const file = join(failuresDir(dataPath), name);
      const failedAt = await readFile(file, 'utf8')
        .then((text) => Date.parse((JSON.parse(text) as { failedAt?: string }).failedAt ?? ''))
        .catch(() => Number.NaN);
      if (failedAt < cutoff) failures.push(file);
    }
    return {
      operations: [],
      itemsProcessed: runs.length + failures.length,
      notes: [`${runs.length} run folders and ${failures.length} dead letters older than ${this.retentionDays} days to purge`],
      refusals: [],
      commit: { runs: runs.map(({ dir }) => dir), failures } satisfies z.infer<typeof retentionCommitSchema>,
    };
  }

  /** Purges the run folders and dead letters the applied plan listed. */
  async commit(_services: DreamServices, data: unknown): Promise<void> {
    const { runs, failures } = retentionCommitSchema.parse(data);
    for (const dir of runs) await rm(dir, { recursive: true, force: true });
    for (const file of failures) await rm(file, { force: true });
  }
}

const retentionCommitSchema = z.object({ runs: z.array(z.string()), failures: z.array(z.string()) });
