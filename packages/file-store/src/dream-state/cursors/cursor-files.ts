import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write';
import { cursorsDir } from '../dream-state-paths';

/**
 * The passes' cursors as files: `_system/dreams/cursors/<pass>.json`, pretty-printed JSON,
 * written atomically.
 */
export class CursorFiles {
  constructor(private readonly dataPath: string) {}

  /** The parsed file, or undefined when there is none or it is not JSON. */
  async read(pass: string): Promise<unknown> {
    try {
      return JSON.parse(await readFile(this.file(pass), 'utf8')) as unknown;
    } catch {
      return undefined;
    }
  }

  async write(pass: string, value: unknown): Promise<void> {
    await writeFileAtomic(this.file(pass), `${JSON.stringify(value, null, 2)}\n`);
  }

  private file(pass: string): string {
    return join(cursorsDir(this.dataPath), `${pass}.json`);
  }
}
