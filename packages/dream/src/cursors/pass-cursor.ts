import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { writeFileAtomic } from '@reverie/file-store';
import { cursorsDir } from '../runs/run-paths';

/**
 * A pass's small durable state between cycles (SPEC D18), in
 * `_system/dreams/cursors/<pass>.json`. Written atomically, and only by a pass's `commit`,
 * so a failed or interrupted run never advances it.
 */
export class PassCursor<T> {
  private readonly file: string;

  constructor(
    dataPath: string,
    pass: string,
    private readonly schema: z.ZodType<T>,
  ) {
    this.file = join(cursorsDir(dataPath), `${pass}.json`);
  }

  /** The saved state, or undefined when there is none (or it is unreadable: start over). */
  async read(): Promise<T | undefined> {
    try {
      const parsed = this.schema.safeParse(JSON.parse(await readFile(this.file, 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async write(value: T): Promise<void> {
    await writeFileAtomic(this.file, `${JSON.stringify(value, null, 2)}\n`);
  }
}
