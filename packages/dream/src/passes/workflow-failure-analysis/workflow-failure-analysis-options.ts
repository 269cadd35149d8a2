import type { PassDeclaration } from '../../engine/pass-declaration';
import { z } from 'zod';
import { skillNamePatternSchema } from '@reverie/core/internal';

/** SPEC D12, D14: the options of the workflow-failure-analysis pass, validated with defaults. */
export const workflowFailureAnalysisOptionsSchema = z
  .object({
    /** How many past days of workflow records one run reads (default 14). */
    windowDays: z.number().int().min(1).default(14),
    /** New failures of one description needed before its skill is annotated (default 3). */
    minFailures: z.number().int().min(1).default(3),
    /** Runs of one description needed before it can be a promotion candidate (default 5). */
    promotionMinRuns: z.number().int().min(1).default(5),
    /** A promotion candidate succeeds more often than this share of its runs (default 0.8). */
    promotionMinSuccessRate: z.number().min(0).max(1).default(0.8),
    /** Longest annotation body written into a skill, in characters (default 1200). */
    maxNoteChars: z.number().int().min(200).max(20_000).default(1200),
    /** Skills never annotated, as name patterns (`mcp/*`, `ops/**`) (default none). */
    protectedSkills: z.array(skillNamePatternSchema).default([]),
  })
  .strict();

export type WorkflowFailureAnalysisOptions = z.output<typeof workflowFailureAnalysisOptionsSchema>;
export type WorkflowFailureAnalysisOptionsInput = z.input<typeof workflowFailureAnalysisOptionsSchema>;

/** What the pass is, declared once: the pass class, the catalogue and `plan()` read this (SPEC "Pass names and order"). */
export const workflowFailureAnalysisPass = {
  name: 'workflow-failure-analysis',
  phase: 'rem',
  requires: ['workflowLog', 'skills'],
  model: 'optional',
  withoutModel: 'factual failure notes written by the host, and promotion candidates',
  spec: 'D12',
} as const satisfies PassDeclaration;
