import type { PassDeclaration } from '../../engine/pass-declaration';
import { z } from 'zod';
import { skillNamePatternSchema } from '@reverie/core/internal';

/** SPEC D10, D14: the options of the skill-optimization pass, validated with defaults. */
export const skillOptimizationOptionsSchema = z
  .object({
    /** Skill usage and feedback from this many past days count (default 30). */
    windowDays: z.number().min(1).default(30),
    /** A skill whose content is shorter than this many characters is sparse (default 200). */
    sparseChars: z.number().int().min(1).default(200),
    /** …once it is at least this many days old (default 7): new skills get time to grow. */
    sparseMinAgeDays: z.number().min(0).default(7),
    /** Skill name patterns (`mcp/*`, `billing/**`) the pass never sends nor rewrites. */
    protectedSkills: z.array(skillNamePatternSchema).default([]),
    /** The most skills sent per run, at-risk skills first (default 20). */
    maxSkillsPerRun: z.number().int().min(1).default(20),
    /** Input tokens per model call, estimated as characters / 4 (default 12000). */
    tokenBudget: z.number().int().min(1000).default(12_000),
  })
  .strict();

export type SkillOptimizationOptions = z.output<typeof skillOptimizationOptionsSchema>;
export type SkillOptimizationOptionsInput = z.input<typeof skillOptimizationOptionsSchema>;

/** What the pass is, declared once: the pass class, the catalogue and `plan()` read this (SPEC "Pass names and order"). */
export const skillOptimizationPass = {
  name: 'skill-optimization',
  phase: 'rem',
  requires: ['skills', 'skillUsage', 'feedback'],
  model: 'required',
  spec: 'D10',
} as const satisfies PassDeclaration;
