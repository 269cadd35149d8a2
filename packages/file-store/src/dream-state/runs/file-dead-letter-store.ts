import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write';
import { type DeadLetter, deadLetterSchema, type DeadLetterStore } from '@reverie/dream-state';
import { failuresDir } from '../dream-state-paths';

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
