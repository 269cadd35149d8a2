import type { DreamPass } from './dream-types';

/** The passes that carry host operations: the engine applies them as given, with no check of its own on what they save. */
const hostOperationsPasses = new WeakSet<DreamPass>();

/** Marks `pass` as carrying operations the host decided on (see `applyHostOperations`). */
export function markHostOperationsPass(pass: DreamPass): DreamPass {
  hostOperationsPasses.add(pass);
  return pass;
}

/** True for a pass `applyHostOperations` made (its saves are the host's decision, not a model's). */
export function isHostOperationsPass(pass: DreamPass): boolean {
  return hostOperationsPasses.has(pass);
}
