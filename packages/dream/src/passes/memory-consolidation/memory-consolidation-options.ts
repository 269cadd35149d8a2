import type { PassDeclaration } from '../../engine/pass-declaration';
import { z } from 'zod';
import { categorySchema } from '@reverie/core';

/** SPEC D3, D14, B1, B4: the options of the memory-consolidation pass, validated with defaults. */
export const memoryConsolidationOptionsSchema = z
  .object({
    /**
     * 'incremental' (default): only clusters of similar entries around what changed since the
     * pass's cursor go to the model (B1). 'full': every entry, up to `maxEntriesFull`, every run.
     */
    strategy: z.enum(['incremental', 'full']).default('incremental'),
    /** Input tokens per model call, estimated as characters / 4 (default 12000). */
    tokenBudget: z.number().int().min(500).default(12_000),
    /** The most entries the 'full' strategy sends in one run (default 1000). */
    maxEntriesFull: z.number().int().min(1).default(1000),
    /** The most changed entries one incremental run works through, oldest first (default 500). */
    maxChangedPerRun: z.number().int().min(1).default(500),
    /**
     * What one reply may take out of current recall or clean-up — entries deleted without being
     * merged, superseded, or moved under a protected category — as a share of the entries its call
     * showed; and the run's budget of the same, as a share of every entry shown (default 0.2). A
     * reply over either is refused whole and recorded as misbehaviour (SPEC B11).
     */
    deletionCap: z.number().min(0).max(1).default(0.2),
    /**
     * Output tokens one call may need (default 4000): calls are packed so that restating every
     * entry shown fits in it, and it is passed to the model as its output limit.
     */
    maxOutputTokens: z.number().int().min(256).max(200_000).default(4000),
    /** How often entries whose merge was refused are offered to the model again (default 3; 0: never). */
    maxRetries: z.number().int().min(0).max(10).default(3),
    /** Hours before the first retry of a refused merge, doubled after each further refusal (default 12). */
    retryAfterHours: z
      .number()
      .min(0)
      .max(24 * 365)
      .default(12),
    /** Entries at or above this importance are never purely deleted (default 0.8). */
    protectImportance: z.number().min(0).max(1).default(0.8),
    /** Entries reinforced at least this often are never purely deleted (default 5). */
    protectReinforcement: z.number().int().min(1).default(5),
    /** Categories (and everything below them) whose entries are never purely deleted. */
    protectedCategories: z.array(categorySchema).default(['user-preferences']),
    /** Feedback from this many past days is shown to the model (default 7). */
    feedbackDays: z.number().min(0).default(7),
    /** At most this many feedback signals, the most recent (default 50). */
    maxFeedback: z.number().int().min(0).default(50),
    /** BM25 neighbours looked up per changed entry (default 5). */
    neighbours: z.number().int().min(1).max(50).default(5),
    /**
     * A neighbour must score at least this share of the best hit of its query, usually the entry
     * itself (default 0.2: related notes score about 0.25–0.5 of it, unrelated ones under 0.1).
     */
    minNeighbourScore: z.number().min(0).max(1).default(0.2),
    /** The most entries one cluster of similar entries may hold; weaker links past it are dropped (default 24). */
    maxClusterSize: z.number().int().min(2).max(500).default(24),
  })
  .strict();

export type MemoryConsolidationOptions = z.output<typeof memoryConsolidationOptionsSchema>;
export type MemoryConsolidationOptionsInput = z.input<typeof memoryConsolidationOptionsSchema>;

/** What the pass is, declared once: the pass class, the catalogue and `plan()` read this (SPEC "Pass names and order"). */
export const memoryConsolidationPass = {
  name: 'memory-consolidation',
  phase: 'rem',
  requires: ['memory'],
  model: 'optional',
  withoutModel: 'the deterministic merge of exact and near-exact duplicates only',
  spec: 'D3–D5, B7',
} as const satisfies PassDeclaration;
