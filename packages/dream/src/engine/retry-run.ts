import { newId, ReverieError } from '@reverie/core';
import { holdingLock } from '@reverie/dream-state';
import { runNotFound } from '../runs/run-details';
import type { CycleReport } from './dream-types';
import type { EngineContext } from './engine-context';
import { runCycle } from './run-cycle';
import type { RunRequest } from './run-request';

/**
 * Re-runs the passes that failed in `runId` (its dead letter, SPEC O7), as a new run with
 * trigger 'retry'. When every one of them ends ok the dead letter is removed; otherwise the
 * dead letter records this attempt and stays. RUN_NOT_FOUND when there is no such run;
 * NOT_FOUND when the run has no dead letter (nothing failed, or it was already retried).
 */
export async function retryRun(engine: EngineContext, runId: string, options: { signal?: AbortSignal } = {}): Promise<CycleReport> {
  const { services, state, roster } = engine;
  const { clock } = services;
  const letter = await state.deadLetters.read(runId);
  if (!letter) {
    if (!(await state.runs.open(runId))) throw runNotFound(state, runId);
    throw new ReverieError('NOT_FOUND', `Dream run ${runId} has no dead letter: none of its passes failed, or a retry already succeeded.`, {
      details: { runId },
    });
  }
  const request: RunRequest = {
    passes: letter.passes.map((pass) => pass.name),
    trigger: 'retry',
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const selected = roster.select(request);
  const needModel = services.model === undefined ? selected.filter((pass) => pass.model === 'required').map((pass) => pass.name) : [];
  if (needModel.length > 0) {
    // Running them would only skip them; the dead letter stays for a retry with a model.
    throw new ReverieError(
      'MODEL_UNAVAILABLE',
      `Dream run ${runId} failed in ${needModel.join(', ')}, which need${needModel.length === 1 ? 's' : ''} a language model: retry with a model configured (REVERIE_MODEL for the CLI). Its dead letter is kept.`,
      { details: { runId, passes: needModel } },
    );
  }
  const retryId = newId();
  const report = await holdingLock(
    state.lock,
    (_, lost) => runCycle(engine, request, selected, retryId, { retryOf: runId, lost }),
    retryId,
  );
  const notOk = report.passes.filter((pass) => pass.status !== 'ok' && pass.status !== 'warning');
  if (notOk.length === 0 && !report.interrupted) {
    await state.deadLetters.remove(runId);
  } else {
    await state.deadLetters.write({
      ...letter,
      retries: (letter.retries ?? 0) + 1,
      lastRetry: {
        runId: retryId,
        at: clock.now().toISOString(),
        passes: notOk.map((pass) => ({
          name: pass.name,
          status: pass.status,
          ...(pass.status === 'skipped' ? { error: pass.reason } : pass.error === undefined ? {} : { error: pass.error }),
        })),
      },
    });
  }
  return report;
}
