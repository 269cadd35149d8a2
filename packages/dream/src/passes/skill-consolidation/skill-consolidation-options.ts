import type { PassDeclaration } from '../../engine/pass-declaration';
import { skillNamePatternSchema } from '@reverie/core/internal';
import { z } from 'zod';

/** SPEC D9, D14: the options of the skill-consolidation pass, validated with defaults. */
export const skillConsolidationOptionsSchema = z
  .object({
    /** Usage counts and co-used pairs cover this many days back from now (default 30). */
    usageWindowDays: z.number().int().min(1).default(30),
    /** A skill whose content is shorter than this many characters may be marked sparse (default 200). */
    sparseChars: z.number().int().min(0).default(200),
    /** …when it was created more than this many days ago (default 7). */
    sparseMinAgeDays: z.number().min(0).default(7),
    /** How many co-used pairs the model is shown, most sessions first (default 10). */
    topPairs: z.number().int().min(0).default(10),
    /** Input tokens per model call, directive included, estimated as characters / 4 (default 12000, at least 2000). */
    tokenBudget: z.number().int().min(2000).default(12_000),
    /** The largest share of the library one run may delete, merge sources included (default 0.25). */
    maxDeleteShare: z.number().min(0).max(1).default(0.25),
    /** Skill name patterns (`mcp/*`, `billing/**`) the pass never merges, rewrites or deletes. */
    protectedSkills: z.array(skillNamePatternSchema).default([]),
  })
  .strict();

export type SkillConsolidationOptions = z.output<typeof skillConsolidationOptionsSchema>;
export type SkillConsolidationOptionsInput = z.input<typeof skillConsolidationOptionsSchema>;

/** What the pass is, declared once: the pass class, the catalogue and `plan()` read this (SPEC "Pass names and order"). */
export const skillConsolidationPass = {
  name: 'skill-consolidation',
  phase: 'rem',
  requires: ['skills', 'skillUsage'],
  model: 'required',
  spec: 'D9',
} as const satisfies PassDeclaration;
