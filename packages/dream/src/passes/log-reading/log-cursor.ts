import type { z } from 'zod';
import { PassCursor } from '@reverie/dream-state';
import type { DreamCursorStore } from '@reverie/dream-state';

/**
 * A log-reading pass's position in the conversation log (SPEC D18): the last seq it has
 * finished with, kept under `key` in the pass's cursor file and moved only by `commit`.
 */
export class LogCursor<K extends string> {
  constructor(
    private readonly pass: string,
    private readonly schema: z.ZodType<Record<K, number>>,
    private readonly key: K,
  ) {}

  /** The last seq the pass has finished with; 0 before its first applied run. */
  async position(cursors: Pick<DreamCursorStore, 'read' | 'write'>): Promise<number> {
    return (await this.file(cursors).read())?.[this.key] ?? 0;
  }

  /** The commit data that moves the cursor to `seq`. */
  at(seq: number): Record<K, number> {
    return { [this.key]: seq } as Record<K, number>;
  }

  /** Moves the cursor as a plan's commit data, read back from JSON, says. */
  async commit(cursors: Pick<DreamCursorStore, 'read' | 'write'>, data: unknown): Promise<void> {
    await this.file(cursors).write(this.schema.parse(data));
  }

  private file(cursors: Pick<DreamCursorStore, 'read' | 'write'>): PassCursor<Record<K, number>> {
    return new PassCursor(cursors, this.pass, this.schema);
  }
}
