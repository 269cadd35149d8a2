import { z } from 'zod';

/** The phases of a cycle, in the order they run (SPEC O1): the one definition every package uses. */
export const DREAM_PHASES = ['light-sleep', 'rem', 'deep-sleep'] as const;
export type DreamPhase = (typeof DREAM_PHASES)[number];
export const dreamPhaseSchema = z.enum(DREAM_PHASES);
