import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '@reverie/file-store';
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
  runFolder: z.string(),
  /** The latest retry that did not succeed. */
  lastRetry: z.object({ runId: z.string(), at: z.string(), passes: z.array(failedPassSchema.extend({ status: z.string() })) }).optional(),
  retries: z.number().int().nonnegative().optional(),
});
export type DeadLetter = z.infer<typeof deadLetterSchema>;

function deadLetterFile(dataPath: string, runId: string): string {
  return join(failuresDir(dataPath), `${runId}.json`);
}

export async function writeDeadLetter(dataPath: string, letter: DeadLetter): Promise<void> {
  await writeFileAtomic(deadLetterFile(dataPath, letter.runId), `${JSON.stringify(deadLetterSchema.parse(letter), null, 2)}\n`);
}

/** The dead letter of `runId`; undefined when there is none (or it is unreadable). */
export async function readDeadLetter(dataPath: string, runId: string): Promise<DeadLetter | undefined> {
  try {
    const parsed = deadLetterSchema.safeParse(JSON.parse(await readFile(deadLetterFile(dataPath, runId), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function removeDeadLetter(dataPath: string, runId: string): Promise<void> {
  await rm(deadLetterFile(dataPath, runId), { force: true });
}

/** The run ids that have a dead letter. */
export async function listDeadLetters(dataPath: string): Promise<string[]> {
  const names = await readdir(failuresDir(dataPath)).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length));
}
