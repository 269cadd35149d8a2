import { z } from 'zod';
import { lockHolderSchema } from './lock-holder';

/** The lock as status shows it (see `DreamLock.state()`). */
export const lockStatusSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('free') }),
  z.object({
    status: z.literal('held'),
    holder: lockHolderSchema,
    /** True when another runner may take the lock over (too old, or its process is gone). */
    stale: z.boolean(),
    staleReason: z.string().optional(),
  }),
]);

export type DreamLockStatus = z.infer<typeof lockStatusSchema>;
