import { newId, ReverieError } from '@reverie/core';
import type { DreamOperation } from '@reverie/dream-state';
import { dreamOperationSchema, holdingLock } from '@reverie/dream-state';
import type { CycleReport, DreamPass, ServiceName } from './dream-types';
import type { EngineContext } from './engine-context';
import { markHostOperationsPass } from './host-operations-pass';
import { runCycle } from './run-cycle';

/** Changes the host decided on (a forget, an import), to be applied as one run of the dream engine. */
export interface HostOperations {
  /** What started the run, as its report and the run list show it: `forget`, `import`. */
  trigger: string;
  /** The name the run records its one pass under (letters, digits and `-`): `forget`, `import`. */
  pass: string;
  operations: DreamOperation[];
  /** Short facts for the report. */
  notes?: string[];
  /** How many records the host looked at (default: the number of operations). */
  itemsProcessed?: number;
}

const PASS_NAME = /^[a-z][a-z0-9-]{0,63}$/;

/**
 * Applies operations the host decided on as one run (SPEC B14, B15): plan, archive, journal and
 * report exactly as a pass's, so the run is recovered after a crash and can be undone. Holds the
 * scope's lock (LOCK_HELD); no model is asked and a user turn does not stop it. INVALID_INPUT
 * for a pass name that is not a plain name or an operation that is not valid.
 */
export async function applyHostOperations(engine: EngineContext, request: HostOperations): Promise<CycleReport> {
  if (typeof request?.pass !== 'string' || !PASS_NAME.test(request.pass) || engine.roster.names.includes(request.pass)) {
    throw new ReverieError(
      'INVALID_INPUT',
      `applyOperations needs a pass name of lower-case letters, digits and "-" that is not a dream pass's, not ${JSON.stringify(request?.pass)}.`,
    );
  }
  const operations = dreamOperationSchema.array().safeParse(request.operations);
  if (!operations.success) {
    throw new ReverieError('INVALID_INPUT', `applyOperations was given an operation that is not valid: ${operations.error.message}`);
  }
  const requires = new Set<ServiceName>();
  for (const operation of operations.data) {
    if (operation.op.startsWith('memory.')) requires.add('memory');
    else if (operation.op.startsWith('skill.')) requires.add('skills');
    else requires.add('conversationLog');
  }
  const pass: DreamPass = markHostOperationsPass({
    name: request.pass,
    phase: 'deep-sleep',
    requires: [...requires],
    model: 'none',
    plan: async () => ({
      operations: operations.data,
      itemsProcessed: request.itemsProcessed ?? operations.data.length,
      notes: request.notes ?? [],
      refusals: [],
    }),
  });
  const runId = newId();
  return holdingLock(
    engine.state.lock,
    (_, lost) => runCycle(engine, { trigger: request.trigger }, [pass], runId, { lost, hostOperations: true }),
    runId,
  );
}
