import type { PassDeclaration } from '../../engine/pass-declaration';
import { z } from 'zod';

export const archiveRetentionOptionsSchema = z
  .object({
    /** Run folders (with their archives) and dead letters older than this many days are purged (default 90). */
    retentionDays: z.number().positive().default(90),
  })
  .strict();

/** What the pass is, declared once: the pass class, the catalogue and `plan()` read this (SPEC "Pass names and order"). */
export const archiveRetentionPass = {
  name: 'archive-retention',
  phase: 'deep-sleep',
  requires: [],
  model: 'none',
  spec: 'O7, O8',
} as const satisfies PassDeclaration;
