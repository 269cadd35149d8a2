import { z } from 'zod';

/** One line of a run's journal: one operation of a pass's plan, as applied (SPEC B2, O8). */
export const journalLineSchema = z.object({
  pass: z.string(),
  index: z.number().int().nonnegative(),
  /** applied: done; conflict: the record changed since it was read, left alone; noop: nothing to do. */
  outcome: z.enum(['applied', 'conflict', 'noop']),
  /** The `updatedAt` the store stamped on a save, to tell later whether someone changed it since. */
  updatedAt: z.string().optional(),
});
export type JournalLine = z.infer<typeof journalLineSchema>;

/** Appends to a run's journal (see `RunFolder.openJournal`). */
export interface JournalWriter {
  append(line: JournalLine): Promise<void>;
  /** Flushes the lines appended to disk and closes the file. */
  close(): Promise<void>;
}
