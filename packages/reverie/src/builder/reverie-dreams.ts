import { invalidOptions, ReverieValidationError } from '@reverie/core';
import { fileSystemError } from '@reverie/core/internal';
import { planDreamPasses } from '../dreaming/dream-pass-catalog';
import type { DreamingOptions } from '../dreaming/dream-options';
import { readDreamStatus } from '../dreaming/status/read-dream-status';
import type { MemoryErasure } from '../memory/forgetting/memory-erasure';
import type { DreamCycle, DreamState } from './assemble-dreaming';
import type { InstanceServices } from './assemble-services';
import type { ReverieDreams } from './reverie';
import type { ParsedConcerns } from './validate-build';

/** `reverie.dreams`: the dream cycle's calls over the instance's engine, trigger, scheduler and state. */
export function createReverieDreams(
  services: InstanceServices,
  options: ParsedConcerns,
  dreamingOptions: DreamingOptions,
  { dreamState, recall, beforeCycle }: DreamState,
  { engine, dreamTrigger, scheduler }: DreamCycle,
  erasure?: MemoryErasure,
): ReverieDreams {
  const { clock, dataPath, memory, model, decay } = services;
  /** Dream work touches many files under `_system/`; a failed one surfaces as READ_ONLY, NO_SPACE… */
  const onDisk = async <T>(action: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw fileSystemError(error, action, dataPath);
    }
  };
  return {
    configured: options.dreaming !== undefined,
    options: dreamingOptions,
    plan: () =>
      planDreamPasses((service) => engine.hasService(service), model !== undefined, dreamingOptions, engine.passNames, engine.hostPasses),
    run: (request = {}) =>
      onDisk('run a dream cycle', async () => {
        await beforeCycle();
        return engine.run({ trigger: 'manual', ...request });
      }),
    trigger: (request = {}) =>
      onDisk('trigger a dream cycle', async () => {
        await beforeCycle();
        return dreamTrigger.trigger({ reason: 'manual', ...request });
      }),
    async onSessionEnd(sessionId) {
      if (typeof sessionId !== 'string' || sessionId.trim() === '') {
        throw new ReverieValidationError(
          'INVALID_INPUT',
          'onSessionEnd(sessionId) needs the id of the session that ended (a non-empty string).',
        );
      }
      if (options.dreaming === undefined) return;
      await dreamTrigger.recordSessionEnd(sessionId);
      scheduler.sessionEnded();
    },
    status: async ({ windowHours } = {}) =>
      readDreamStatus({
        ledger: dreamState.ledger,
        now: clock.now(),
        lock: await engine.lockState(),
        ...(windowHours === undefined ? {} : { windowHours }),
      }),
    async ledger({ windowHours } = {}) {
      if (windowHours !== undefined && !(Number.isFinite(windowHours) && windowHours > 0)) {
        throw new ReverieValidationError('INVALID_INPUT', `ledger({ windowHours }) takes a positive number of hours, not ${windowHours}.`);
      }
      const { lines } = await dreamState.ledger.read();
      if (windowHours === undefined) return lines;
      const since = clock.now().getTime() - windowHours * 3_600_000;
      return lines.filter((line) => Date.parse(line.completedAt) >= since);
    },
    lockState: () => engine.lockState(),
    listRuns: () => engine.listRuns(),
    show: (runId) => engine.show(runId),
    changes: (runId) => engine.changes(runId),
    async history(record) {
      if (!['memory', 'skill', 'conversation-log'].includes(record?.kind) || typeof record.key !== 'string' || record.key === '') {
        throw new ReverieValidationError(
          'INVALID_INPUT',
          "history(record) takes { kind: 'memory' | 'skill', key }: an entry's id or a skill's name.",
        );
      }
      return engine.history(record);
    },
    retry: (runId) => onDisk('retry a dream run', () => engine.retry(runId)),
    apply: (planId, request = {}) => onDisk('apply a dream plan', () => engine.apply(planId, request)),
    plans: () => engine.pendingPlans(),
    async explain(entryId) {
      if (!memory)
        throw invalidOptions('explain(entryId) needs long-term memory: call .withMemory() on the builder.', [
          { path: 'withMemory', message: 'not configured' },
        ]);
      await recall?.flush();
      const { explainPromotion, explainEntryValue } = await import('@reverie/dream/internal');
      const tierServices = { recall: dreamState.recall, memory, now: clock.now(), decay };
      const promotion = await explainPromotion(entryId, tierServices, {
        signals: dreamingOptions.recallSignals,
        promotion: dreamingOptions.promotion,
      });
      if (promotion.status === 'not-found') return promotion;
      const value = await explainEntryValue(entryId, tierServices, {
        signals: dreamingOptions.recallSignals,
        tiers: tiersOf(dreamingOptions),
      });
      return value === undefined ? promotion : { ...promotion, value };
    },
    async tiers(request = {}) {
      if (!memory)
        throw invalidOptions('tiers() needs long-term memory: call .withMemory() on the builder.', [
          { path: 'withMemory', message: 'not configured' },
        ]);
      const nearest = request.nearest ?? 5;
      if (!Number.isInteger(nearest) || nearest < 0 || nearest > 1000)
        throw new ReverieValidationError(
          'INVALID_INPUT',
          `tiers({ nearest }) takes a whole number from 0 to 1000, not ${String(nearest)}.`,
          {
            details: { value: nearest },
          },
        );
      await recall?.flush();
      const { tierReport } = await import('@reverie/dream/internal');
      const report = await tierReport(
        { recall: dreamState.recall, memory, now: clock.now(), decay },
        { signals: dreamingOptions.recallSignals, tiers: tiersOf(dreamingOptions) },
        nearest,
      );
      return { ...report, enabled: dreamingOptions.tiers.enabled };
    },
    // SPEC B14: a run whose records an erasure rewrote cannot bring the erased text back.
    undo: (runId) =>
      onDisk('undo a dream run', async () => {
        await erasure?.refuseErasedRun(runId);
        return engine.undo(runId);
      }),
    recover: () =>
      onDisk('recover interrupted dream runs', async () => {
        const report = await engine.recover();
        await erasure?.recover();
        return report;
      }),
    async start() {
      if (options.dreaming === undefined) {
        throw invalidOptions(
          'dreams.start() has no dream cycle to schedule: call .withDreaming() on the builder (createReverie(…).withMemory().withDreaming().build()), or leave start() out.',
          [{ path: 'withDreaming', message: 'not configured' }],
        );
      }
      await onDisk('start dreaming', async () => {
        await engine.recover();
        await erasure?.recover();
        scheduler.start();
      });
    },
    stop: () => scheduler.stop(),
  };
}

/** The tier-migration options without the switch (SPEC B13). */
function tiersOf(options: DreamingOptions) {
  const { enabled: _enabled, ...tiers } = options.tiers;
  return tiers;
}
