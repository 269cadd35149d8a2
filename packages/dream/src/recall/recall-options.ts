import type { PassDeclaration } from '../engine/pass-declaration';
import { z } from 'zod';

const weight = z.number().min(0).max(1);

/** SPEC O4: how recall events become a score (weights 0.30 / 0.35 / 0.20 / 0.15). */
export const recallSignalsOptionsSchema = z
  .object({
    /** How the four signals add up to a score; they must sum to 1. */
    weights: z
      .object({
        /** How often the entry was recalled (default 0.30). */
        frequency: weight.default(0.3),
        /** How well it matched the searches that returned it (default 0.35). */
        relevance: weight.default(0.35),
        /** How recently it was recalled (default 0.20). */
        recency: weight.default(0.2),
        /** How recently the entry itself was seen (default 0.15). */
        freshness: weight.default(0.15),
      })
      .strict()
      .prefault({})
      .refine((w) => Math.abs(w.frequency + w.relevance + w.recency + w.freshness - 1) < 1e-6, 'the four weights must sum to 1'),
    /** Days after which a recall counts half as recent (default 14). */
    recencyHalfLifeDays: z.number().positive().default(14),
    /** Days after which an entry last seen then counts half as fresh (default 30). */
    freshnessHalfLifeDays: z.number().positive().default(30),
    /** Once this many bytes of `recall-events.jsonl` are folded, the folded part is dropped (default 4 MiB). */
    compactEventsBytes: z
      .number()
      .int()
      .min(1)
      .max(2 ** 40)
      .default(4 * 1024 * 1024),
  })
  .strict();
export type RecallSignalsOptions = z.output<typeof recallSignalsOptionsSchema>;
export type RecallSignalsOptionsInput = z.input<typeof recallSignalsOptionsSchema>;

/** SPEC O4: which recalled entries the deep-sleep promotion pass raises, and by how much. */
export const promotionOptionsSchema = z
  .object({
    /** Recalls an entry needs before it can be promoted (default 3). */
    minRecallCount: z.number().int().min(1).default(3),
    /** Score it needs (default 0.6). */
    minScore: z.number().min(0).max(1).default(0.6),
    /** Promotions per run, best score first (default 20). */
    maxPerRun: z.number().int().min(1).default(20),
    /** How much importance one promotion adds, up to 1 (default 0.15). */
    importanceStep: z.number().positive().max(1).default(0.15),
  })
  .strict();
export type PromotionOptions = z.output<typeof promotionOptionsSchema>;
export type PromotionOptionsInput = z.input<typeof promotionOptionsSchema>;

/** What the pass is, declared once: the pass class, the catalogue and `plan()` read this (SPEC "Pass names and order"). */
export const recallSignalsPass = {
  name: 'recall-signals',
  phase: 'light-sleep',
  requires: ['memory'],
  model: 'none',
  spec: 'O4, B1',
} as const satisfies PassDeclaration;

/** What the pass is, declared once: the pass class, the catalogue and `plan()` read this (SPEC "Pass names and order"). */
export const promotionPass = {
  name: 'promotion',
  phase: 'deep-sleep',
  requires: ['memory'],
  model: 'none',
  spec: 'O4',
} as const satisfies PassDeclaration;
