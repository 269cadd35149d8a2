import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '@reverie/file-store';
import type { DeadLetterStore } from '../state/dream-state-store';
import { failuresDir } from './run-paths';

const failedPassSchema = z.object({ name: z.string(), error: z.string().optional() });

/**
 * A run with a failed pass leaves `_system/dreams/failures/<runId>.json` (SPEC O7): which passes
 * failed and why. `retry` re-runs those passes and removes the dead letter once they succeed; a
 * retry that fails again is recorded on the same dead letter.
 */
export const deadLetterSchema = z.object({
  runId: z.string(),
  trigger: z.string(),
  failedAt: z.string(),
  passes: z.array(failedPassSchema),
  /** Where the run's records are (its folder, for files): absent when the state store has no place to show. */
  runFolder: z.string().optional(),
  /** The latest retry that did not succeed. */
  lastRetry: z.object({ runId: z.string(), at: z.string(), passes: z.array(failedPassSchema.extend({ status: z.string() })) }).optional(),
  retries: z.number().int().nonnegative().optional(),
});
export type DeadLetter = z.infer<typeof deadLetterSchema>;

/** The dead letters of a data directory, one file per run in `_system/dreams/failures/`. */
export class FileDeadLetterStore implements DeadLetterStore {
  constructor(private readonly dataPath: string) {}

  async write(letter: DeadLetter): Promise<void> {
    await writeFileAtomic(this.file(letter.runId), `${JSON.stringify(deadLetterSchema.parse(letter), null, 2)}\n`);
  }

  /** The dead letter of `runId`; undefined when there is none (or it is unreadable). */
  async read(runId: string): Promise<DeadLetter | undefined> {
    try {
      const parsed = deadLetterSchema.safeParse(JSON.parse(await readFile(this.file(runId), 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async remove(runId: string): Promise<void> {
    await rm(this.file(runId), { force: true });
  }

  /** The run ids that have a dead letter. */
  async list(): Promise<string[]> {
    const names = await readdir(failuresDir(this.dataPath)).catch(() => [] as string[]);
    return names.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length));
  }

  private file(runId: string): string {
    return join(failuresDir(this.dataPath), `${runId}.json`);
  }
}
