import type { z } from 'zod';
import type { DreamCursorStore } from './dream-state-store';

/**
 * A pass's small durable state between cycles (SPEC D18), kept by the state store's cursors
 * (`_system/dreams/cursors/<pass>.json` for files) and validated with the pass's schema. Written
 * only by a pass's `commit`, so a failed or interrupted run never advances it.
 */
export class PassCursor<T> {
  constructor(
    private readonly cursors: Pick<DreamCursorStore, 'read' | 'write'>,
    private readonly pass: string,
    private readonly schema: z.ZodType<T>,
  ) {}

  /** The saved state, or undefined when there is none (or it is unreadable: start over). */
  async read(): Promise<T | undefined> {
    const parsed = this.schema.safeParse(await this.cursors.read(this.pass));
    return parsed.success ? parsed.data : undefined;
  }

  async write(value: T): Promise<void> {
    await this.cursors.write(this.pass, value);
  }
}
