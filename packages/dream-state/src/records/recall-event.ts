import { z } from 'zod';

/** One entry returned by one search (SPEC O4). */
export const recallEventSchema = z.object({
  at: z.string(),
  entryId: z.string().min(1),
  /** The entry's search score relative to the best result of that search, 0..1. */
  relevance: z.number().min(0).max(1),
  source: z.enum(['turn', 'tool', 'api']),
});
export type RecallEvent = z.infer<typeof recallEventSchema>;
export type RecallSource = RecallEvent['source'];
