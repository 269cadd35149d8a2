import { isReverieError } from '@reverie/core';
import { assertStillHeld, holdingLock } from '@reverie/dream-state';
import { commitPass } from './commit-pass';
import type { EngineContext } from './engine-context';
import { applyJournalled, archiveOperations } from './operation-applier';

/**
 * Finishes runs that a crash interrupted (SPEC B2): the pass that was being applied is rolled
 * forward from its fsynced plan and journal, so no source is left deleted without its merge
 * or merged without being deleted, and then committed (its cursor moves as after a clean apply). Call at startup before the first run. While another runner
 * holds the lock, its run is not interrupted: nothing is recovered and the list is empty.
 */
export async function recoverRuns(engine: EngineContext): Promise<string[]> {
  try {
    return await holdingLock(engine.state.lock, (_, lost) => recoverLocked(engine, lost));
  } catch (error) {
    if (!isReverieError(error, 'LOCK_HELD')) throw error;
    engine.services.logger.info('Another runner holds the dream lock; its runs are in progress, nothing to recover.', {
      error: error.message,
    });
    return [];
  }
}

async function recoverLocked({ services, state, roster }: EngineContext, lost: AbortSignal | undefined): Promise<string[]> {
  const recovered: string[] = [];
  for (const { manifest } of await state.runs.list()) {
    if (manifest.status !== 'running') continue;
    const folder = await state.runs.open(manifest.runId);
    if (!folder) continue;
    if (manifest.applying) {
      const plan = await folder.readPlan(manifest.applying);
      const done = (await folder.readJournal()).filter((line) => line.pass === manifest.applying);
      const next = done.length === 0 ? 0 : Math.max(...done.map((line) => line.index)) + 1;
      // The crash may have come before the archive was complete: archive again what has not
      // changed since the plan (a record already applied has a new updatedAt and keeps the
      // pre-image archived before it), so undo can restore everything the roll-forward touches.
      await archiveOperations(folder, manifest.applying, plan.operations, services);
      const pass = roster.passes.find((candidate) => candidate.name === manifest.applying);
      const checks = pass ? { conversationLogHorizon: () => roster.conversationLogHorizon(pass) } : {};
      await applyJournalled(folder, manifest.applying, plan.operations, services, next, { resumed: true, checks, lost });
      assertStillHeld(lost);
      if (pass) await commitPass(pass, services, plan.commit);
    }
    assertStillHeld(lost);
    await folder.update({ status: 'interrupted', completedAt: services.clock.now().toISOString() });
    services.logger.warn('Finished a dream run that was interrupted by a crash.', { runId: manifest.runId, pass: manifest.applying });
    recovered.push(manifest.runId);
  }
  return recovered;
}
