import { archiveRetentionPass } from './archive-retention-options';
import { DeclaredPass } from '../../engine/declared-pass';
import { basename } from 'node:path';
import { z } from 'zod';
import type { DreamServices, PassContext, PassPlan } from '../../engine/dream-types';
import { parsePassOptions } from '../parse-pass-options';
import { archiveRetentionOptionsSchema } from './archive-retention-options';

const DAY_MS = 86_400_000;

/**
 * SPEC O7/O8, deep sleep: purges runs and dead letters past the retention. After the
 * purge a run can no longer be undone; that is the point of a retention. Runs still marked
 * running are never purged.
 */
export class ArchiveRetentionPass extends DeclaredPass {
  private readonly retentionDays: number;

  constructor(options: z.input<typeof archiveRetentionOptionsSchema> = {}) {
    super(archiveRetentionPass);
    this.retentionDays = parsePassOptions('archive-retention', archiveRetentionOptionsSchema, options).retentionDays;
  }

  async plan(context: PassContext): Promise<PassPlan> {
    const { state } = context.services;
    const cutoff = context.now().getTime() - this.retentionDays * DAY_MS;
    const runs = (await state.runs.list()).filter(
      ({ manifest }) =>
        manifest.status !== 'running' &&
        manifest.runId !== context.runId &&
        Date.parse(manifest.completedAt ?? manifest.startedAt) < cutoff,
    );
    const failures: string[] = [];
    for (const runId of await state.deadLetters.list()) {
      const letter = await state.deadLetters.read(runId);
      if (letter !== undefined && Date.parse(letter.failedAt) < cutoff) failures.push(runId);
    }
    return {
      operations: [],
      itemsProcessed: runs.length + failures.length,
      notes: [`${runs.length} run folders and ${failures.length} dead letters older than ${this.retentionDays} days to purge`],
      refusals: [],
      commit: { runs: runs.map(({ manifest }) => manifest.runId), failures } satisfies z.input<typeof retentionCommitSchema>,
    };
  }

  /** Purges the runs and dead letters the applied plan listed. */
  async commit(services: DreamServices, data: unknown): Promise<void> {
    const { runs, failures } = retentionCommitSchema.parse(data);
    for (const runId of runs) await services.state.runs.remove(runId);
    for (const runId of failures) await services.state.deadLetters.remove(runId);
  }
}

/**
 * A run's id. Plans made before the dream state had an interface named the run folders
 * (`…/runs/<date>-<runId>`) and dead-letter files (`…/failures/<runId>.json`) instead: their last
 * part names the run.
 */
const runIdSchema = z.string().transform((value) =>
  value.includes('/') || value.includes('\\')
    ? basename(value)
        .replace(/\.json$/, '')
        .replace(/^\d{4}-\d{2}-\d{2}-/, '')
    : value,
);

const retentionCommitSchema = z.object({ runs: z.array(runIdSchema), failures: z.array(runIdSchema) });
