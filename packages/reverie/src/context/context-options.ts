import { z } from 'zod';
import { CATEGORY_RULES, isSystemCategory, pathNameProblem } from '@reverie/core/internal';
import { durationSchema } from '../options/duration';

/** The categories pinned by default (SPEC M5, M11): what the user wants and what to avoid. */
export const DEFAULT_PROFILE_CATEGORIES = ['user-preferences/', 'anti-patterns/'] as const;

/** A pinned category, `user-preferences` or `user-preferences/`: the category and everything below it. */
const pinnedCategorySchema = z.string().transform((value, context) => {
  const category = value.endsWith('/') ? value.slice(0, -1) : value;
  const problem = pathNameProblem(category, CATEGORY_RULES);
  if (problem) context.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a category: ${problem}` });
  else if (isSystemCategory(category))
    context.addIssue({
      code: 'custom',
      message: `${JSON.stringify(value)} holds Reverie's own records, which are never shown to the model`,
    });
  return category;
});

/** Options of the per-turn context (SPEC M9, M11). */
export const contextOptionsSchema = z
  .object({
    /** Entries recalled by BM25 for a user message (default 8). */
    recallResults: z.number().int().min(1).max(100).default(8),
    /** On a session's first turn with no match, up to this many entries without a query (default 5). */
    firstTurnFallback: z.number().int().min(0).max(100).default(5),
    /**
     * SPEC M9: turns of the session replayed to the model (default 20), from process memory or,
     * for a session this process has not seen (after a restart), from the conversation log.
     */
    replayTurns: z.number().int().min(0).max(1000).default(20),
    /**
     * SPEC M9: a session with no turn for this long ends (default "1h"): its turns and recalled
     * entries leave process memory, and a later turn with its id starts afresh. 0 keeps sessions
     * until `endSession()`.
     */
    sessionIdleTimeout: durationSchema
      .refine((ms) => ms <= 30 * 24 * 60 * 60_000, 'sessionIdleTimeout must be at most 30 days')
      .default(60 * 60_000),
    /**
     * SPEC M11: the session memory block, re-rendered on every call — the entries recalled so far
     * in the session, those that bear on the current message first — fits in this many tokens
     * (characters / 4; default 1000).
     */
    sessionMemory: z
      .object({ tokenBudget: z.number().int().min(50).max(100_000).default(1000) })
      .strict()
      .prefault({}),
    /**
     * SPEC M11: the profile, in every call's context: entries of the pinned categories (default
     * `user-preferences/` and `anti-patterns/`; `[]` turns the profile off), most important and
     * most recently seen first, within `tokenBudget` tokens (default 500).
     */
    profile: z
      .object({
        categories: z
          .array(pinnedCategorySchema)
          .max(20)
          .prefault([...DEFAULT_PROFILE_CATEGORIES]),
        tokenBudget: z.number().int().min(50).max(100_000).default(500),
      })
      .strict()
      .prefault({}),
  })
  .strict();
export type ContextOptions = z.output<typeof contextOptionsSchema>;
export type ContextOptionsInput = z.input<typeof contextOptionsSchema>;
