import type { PassDeclaration } from '../../engine/pass-declaration';
import { z } from 'zod';
import { categorySchema } from '@reverie/core';

/** SPEC D11, D14: the options of the preference-inference pass, validated with defaults. */
export const preferenceInferenceOptionsSchema = z
  .object({
    /** The most logged turns one run reads, oldest first (default 2000); the rest wait for the next run. */
    maxTurnsPerRun: z.number().int().min(1).default(2000),
    /** Longest turn text sent to the model, in characters; longer turns are cut and marked (default 2000). */
    maxTurnChars: z.number().int().min(100).default(2000),
    /** Feedback from this many past days is shown to the model (default 7). */
    feedbackDays: z.number().min(0).default(7),
    /** At most this many feedback signals, the most recent (default 50). */
    maxFeedback: z.number().int().min(0).default(50),
    /** Where inferred preferences are filed (default `user-preferences/inferred`). */
    category: categorySchema.default('user-preferences/inferred'),
  })
  .strict();

export type PreferenceInferenceOptions = z.output<typeof preferenceInferenceOptionsSchema>;
export type PreferenceInferenceOptionsInput = z.input<typeof preferenceInferenceOptionsSchema>;

/** What the pass is, declared once: the pass class, the catalogue and `plan()` read this (SPEC "Pass names and order"). */
export const preferenceInferencePass = {
  name: 'preference-inference',
  phase: 'rem',
  requires: ['memory', 'conversationLog'],
  model: 'required',
  spec: 'D11',
} as const satisfies PassDeclaration;
