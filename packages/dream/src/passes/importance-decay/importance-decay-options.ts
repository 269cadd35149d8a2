import type { PassDeclaration } from '../../engine/pass-declaration';
import { z } from 'zod';

const MOVED =
  'the decay curve is set once for memory and the passes: use .withMemory({ decay: { graceDays, halfLifeDays, floor } }) (or the store and engine option `decay`)';

export const importanceDecayOptionsSchema = z
  .object({
    /**
     * Store decayed importances (default false). Importance decays at read time (SPEC D7), so by
     * default the pass writes nothing and reports what has decayed. `true` rewrites every entry
     * whose effective importance moved in the fourth decimal, stamped `importanceAt` — for a
     * custom store that ranks by stored values.
     */
    write: z.boolean().default(false),
    /**
     * Count what has decayed (default false): lists every entry and reports how many sit below
     * their stored importance and by how much. Off by default because it costs a read of the
     * whole memory each cycle (SPEC B12); `write: true` implies it.
     */
    report: z.boolean().default(false),
    graceDays: z.never({ error: `graceDays moved: ${MOVED}` }).optional(),
    halfLifeDays: z.never({ error: `halfLifeDays moved: ${MOVED}` }).optional(),
    floor: z.never({ error: `floor moved: ${MOVED}` }).optional(),
  })
  .strict();
export type ImportanceDecayOptions = z.output<typeof importanceDecayOptionsSchema>;
export type ImportanceDecayOptionsInput = z.input<typeof importanceDecayOptionsSchema>;

/** What the pass is, declared once: the pass class, the catalogue and `plan()` read this (SPEC "Pass names and order"). */
export const importanceDecayPass = {
  name: 'importance-decay',
  phase: 'light-sleep',
  requires: ['memory'],
  model: 'none',
  spec: 'D7',
} as const satisfies PassDeclaration;
