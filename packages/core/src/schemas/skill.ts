import { z } from 'zod';
import { searchResultCountSchema, searchTextSchema, skillNameSchema, timestampSchema } from './common';
import { sessionIdSchema } from './conversation-turn';

export const MAX_SKILL_CONTENT_LENGTH = 200_000;

/** SPEC M13: one skill, a markdown procedure the agent can recall by name or by search. */
export const skillSchema = z.object({
  name: skillNameSchema,
  summary: z.string().min(1, 'a skill needs a summary').max(1000),
  content: z.string().max(MAX_SKILL_CONTENT_LENGTH),
  seeAlso: z.array(skillNameSchema).max(50),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  lastUsedAt: timestampSchema.nullable(),
});
export type Skill = z.infer<typeof skillSchema>;

/**
 * What a caller hands to `ISkillStore.save`. A new name creates the skill; an existing name
 * replaces it, keeping `createdAt` and `lastUsedAt` unless the draft carries them. An
 * `updatedAt` in the draft is ignored: the store stamps it.
 */
export const skillDraftSchema = skillSchema.omit({ updatedAt: true }).extend({
  seeAlso: skillSchema.shape.seeAlso.optional(),
  createdAt: timestampSchema.optional(),
  lastUsedAt: timestampSchema.nullable().optional(),
});
export type SkillDraft = z.input<typeof skillDraftSchema>;

export const skillSearchQuerySchema = z.object({
  text: searchTextSchema.optional(),
  /** Only skills whose name equals or lies below this prefix (`mcp`). */
  prefix: skillNameSchema.optional(),
  maxResults: searchResultCountSchema(8),
});
export type SkillSearchQuery = z.input<typeof skillSearchQuerySchema>;

export interface SkillSearchResult {
  skill: Skill;
  score: number;
}

/** SPEC M13: one use of a skill in a session. */
export const skillUsageSchema = z.object({
  skill: skillNameSchema,
  sessionId: sessionIdSchema,
  timestamp: timestampSchema,
});
export type SkillUsage = z.infer<typeof skillUsageSchema>;

export const skillUsageDraftSchema = skillUsageSchema.extend({ timestamp: timestampSchema.optional() });
export type SkillUsageDraft = z.input<typeof skillUsageDraftSchema>;
