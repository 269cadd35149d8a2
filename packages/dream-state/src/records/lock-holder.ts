import { z } from 'zod';

/** What the lock file holds: who has the lock, since when, for which run. */
export const lockHolderSchema = z.object({
  pid: z.number().int(),
  host: z.string(),
  acquiredAt: z.string(),
  runId: z.string().optional(),
  /** Unique per acquisition: tells this holder's lock file from a later one of the same process. */
  token: z.string().optional(),
});
export type LockHolder = z.infer<typeof lockHolderSchema>;
