import { z } from 'zod';

export const archiveRetentionOptionsSchema = z
  .object({
    /** Run folders (with their archives) and dead letters older than this many days are purged (default 90). */
    retentionDays: z.number().positive().default(90),
  })
  .strict();
