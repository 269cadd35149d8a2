/**
 * What a dream pass is, apart from what it does: its name, the phase it runs in, the services it
 * cannot do without and whether it needs a model. Each built-in pass declares this once, beside
 * its options (`*-options.ts`), and the pass class, the engine and the host's catalogue
 * (`reverie`'s `planDreamPasses`, `status`, the inspector) all read that one declaration; a host
 * pass declares the same fields. Nothing here loads a pass.
 */

import type { DreamPhase } from '@reverie/dream-state';

export { DREAM_PHASES, type DreamPhase } from '@reverie/dream-state';

/** The services a pass can require, by the name `DreamServices` gives them. */
export type ServiceName = 'memory' | 'skills' | 'skillUsage' | 'conversationLog' | 'feedback' | 'workflowLog' | 'model';

/** Every `ServiceName`, for validating a host pass's declaration. */
export const SERVICE_NAMES: readonly ServiceName[] = [
  'memory',
  'skills',
  'skillUsage',
  'conversationLog',
  'feedback',
  'workflowLog',
  'model',
];

export interface PassDeclaration {
  /** The public name used by `run({ passes })`, the CLI, the ledger and reports: lower-case words joined by hyphens. */
  readonly name: string;
  readonly phase: DreamPhase;
  /** Services without which the pass is skipped (SPEC D2). */
  readonly requires: readonly ServiceName[];
  /** 'required': skipped without a model; 'optional': runs, doing less, without one; 'none': never asks one. */
  readonly model: 'required' | 'optional' | 'none';
  /** For `model: 'optional'`: what the pass still does without one. */
  readonly withoutModel?: string;
  /** The SPEC ids the pass implements (built-in passes), for the catalogue. */
  readonly spec?: string;
}
