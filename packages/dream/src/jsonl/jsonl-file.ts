import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { JsonlContents } from '@reverie/dream-state';
import type { z } from 'zod';

/**
 * An append-only file of JSON lines. Each append is one `write` of one whole line followed by
 * an fsync, so concurrent appenders (`O_APPEND`) never interleave inside a line and a line that
 * returned is on disk. A crash mid-append can leave a torn last line: readers skip any line that
 * does not parse and count it.
 */
export class JsonlFile<T> {
  constructor(
    readonly path: string,
    private readonly schema: z.ZodType<T>,
  ) {}

  async append(record: T): Promise<void> {
    const line = `${JSON.stringify(this.schema.parse(record))}\n`;
    await mkdir(dirname(this.path), { recursive: true });
    const handle = await open(this.path, 'a');
    try {
      await handle.write(line);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async read(): Promise<JsonlContents<T>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], invalidLines: 0 };
      throw error;
    }
    const lines: T[] = [];
    let invalidLines = 0;
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      const parsed = this.schema.safeParse(safeJson(raw));
      if (parsed.success) lines.push(parsed.data);
      else invalidLines += 1;
    }
    return { lines, invalidLines };
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
