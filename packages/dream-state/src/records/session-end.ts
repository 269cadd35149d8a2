import { z } from 'zod';

/** One completed agent session, for the session gate (SPEC O3). */
export const sessionEndSchema = z.object({ sessionId: z.string().min(1), endedAt: z.string() });
export type SessionEnd = z.infer<typeof sessionEndSchema>;
