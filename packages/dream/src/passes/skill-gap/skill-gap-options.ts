import type { PassDeclaration } from '../../engine/pass-declaration';
import { z } from 'zod';
import { skillNamePatternSchema } from '@reverie/core/internal';

/** SPEC D8, D14, D18: the options of the skill-gap pass, validated with defaults. */
export const skillGapOptionsSchema = z
  .object({
    /** The most logged turns one run reads past its cursor, oldest first (default 2000). */
    maxTurnsPerRun: z.number().int().min(1).default(2000),
    /** Input tokens per model call, estimated as characters / 4 (default 12000). */
    tokenBudget: z.number().int().min(1000).default(12_000),
    /** A kind of request must show up in at least this many distinct sessions to become a skill (default 2, at least 2). */
    minSessions: z.number().int().min(2).default(2),
    /** Skill name patterns (`mcp/*`, `billing/**`) the pass never creates a skill under. */
    protectedSkills: z.array(skillNamePatternSchema).default([]),
  })
  .strict();

export type SkillGapOptions = z.output<typeof skillGapOptionsSchema>;
export type SkillGapOptionsInput = z.input<typeof skillGapOptionsSchema>;

/** What the pass is, declared once: the pass class, the catalogue and `plan()` read this (SPEC "Pass names and order"). */
export const skillGapPass = {
  name: 'skill-gap',
  phase: 'rem',
  requires: ['skills', 'conversationLog'],
  model: 'required',
  spec: 'D8',
} as const satisfies PassDeclaration;
