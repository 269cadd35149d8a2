import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryLongTermMemory, type ManualClock, type MemoryEntry, silentLogger } from '@reverie/core';
import type { DreamStateStore } from '@reverie/dream-state';
import { type DreamStateFactory, useDreamStateScope } from '@reverie/dream-state/testing';
import { DreamEngine } from '../engine/dream-engine';
import type { DreamPass, DreamServices, PassPlan } from '../engine/dream-types';

/**
 * The dream engine on a `DreamStateStore`, across handles, as a vitest suite: a cycle interrupted
 * through one handle is recovered, shown, retried and undone through another, and a saved plan
 * expires and is applied once. Run it beside `describeDreamStateConformance`
 * (`@reverie/dream-state/testing`), with the same factory:
 *
 * ```ts
 * describeDreamEngineConformance('MyDreamState', ({ clock, scope }) => ({
 *   open: async () => new MyDreamState({ clock, scope }),
 *   crash: async (store) => (store as MyDreamState).dropConnection(),
 * }));
 * ```
 */
export function describeDreamEngineConformance(name: string, factory: DreamStateFactory): void {
  describe(`${name} — the dream engine on it`, () => {
    const h = useDreamStateScope(factory);
    const { open, iso } = h;
    let clock: ManualClock;
    beforeEach(() => {
      clock = h.clock();
    });

    describe('the engine on it, across handles', () => {
      const services = (state: DreamStateStore, memory: InMemoryLongTermMemory): DreamServices => ({
        state,
        clock,
        logger: silentLogger,
        memory,
      });

      it('recovers, shows and undoes through one handle a cycle interrupted through another', async () => {
        const memory = new InMemoryLongTermMemory({ clock });
        const keep = await memory.save({ content: 'Deploys happen on Tuesdays', category: 'facts' });
        const duplicate = await memory.save({ content: 'deploys happen on tuesdays', category: 'facts' });
        const [a, b] = [await open(), await open()];
        // What a crash right after the plan and the archive leaves behind: nothing applied, no journal.
        await a.lock.acquire('a00000000001');
        const run = await a.runs.create({ runId: 'a00000000001', trigger: 'schedule', startedAt: iso() });
        const operations = [
          { op: 'memory.delete' as const, id: duplicate.id, expectUpdatedAt: duplicate.updatedAt, reason: `duplicate of ${keep.id}` },
        ];
        await run.writePlan({ pass: 'dedupe', operations, notes: [], refusals: [], commit: { done: true } });
        await run.archive('dedupe', [{ kind: 'memory', key: duplicate.id, record: duplicate }]);
        await h.crash(a);

        const committed: unknown[] = [];
        const dedupe: DreamPass = {
          name: 'dedupe',
          phase: 'light-sleep',
          requires: ['memory'],
          model: 'none',
          plan: async () => ({ operations: [], itemsProcessed: 0, notes: [], refusals: [] }),
          commit: async (_services, data) => {
            committed.push(data);
          },
        };
        const engine = new DreamEngine(services(b, memory), [dedupe]);
        expect(await engine.recover()).toEqual(['a00000000001']);
        expect(await memory.get(duplicate.id)).toBeUndefined();
        expect(committed).toEqual([{ done: true }]);
        const shown = await engine.show('a00000000001');
        expect(shown.manifest).toMatchObject({ status: 'interrupted', trigger: 'schedule' });
        expect((await engine.listRuns()).map((summary) => summary.runId)).toEqual(['a00000000001']);
        const undone = await new DreamEngine(services(await open(), memory), [dedupe]).undo('a00000000001');
        expect(undone.restored).toEqual([`memory ${duplicate.id}`]);
        expect((await memory.get(duplicate.id))?.content).toBe(duplicate.content);
        expect((await engine.show('a00000000001')).manifest.status).toBe('undone');
      });

      it('leaves a dead letter for a failed pass that a retry through another handle clears', async () => {
        const memory = new InMemoryLongTermMemory({ clock });
        let fail = true;
        const flaky: DreamPass = {
          name: 'flaky',
          phase: 'deep-sleep',
          requires: ['memory'],
          model: 'none',
          plan: async (): Promise<PassPlan> => {
            if (fail) throw new Error('the first attempt fails');
            return { operations: [], itemsProcessed: 1, notes: [], refusals: [] };
          },
        };
        const [a, b] = [await open(), await open()];
        const report = await new DreamEngine(services(a, memory), [flaky]).run({ trigger: 'manual' });
        expect(report.passes[0]).toMatchObject({ status: 'failed' });
        expect(await b.deadLetters.read(report.runId)).toMatchObject({ runId: report.runId, passes: [{ name: 'flaky' }] });
        expect((await b.ledger.read()).lines.map((line) => [line.pass, line.status])).toEqual([['flaky', 'failed']]);
        fail = false;
        const engine = new DreamEngine(services(b, memory), [flaky]);
        const retried = await engine.retry(report.runId);
        expect(retried).toMatchObject({ retryOf: report.runId, passes: [{ name: 'flaky', status: 'ok' }] });
        expect(await a.deadLetters.read(report.runId)).toBeUndefined();
        expect((await engine.listRuns()).find((summary) => summary.runId === report.runId)?.deadLetter).toBe(false);
        await expect(engine.retry(report.runId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
        await expect(engine.retry('ffffffffffff')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
      });

      it('applies a saved plan once, through any handle, and refuses it once expired', async () => {
        const memory = new InMemoryLongTermMemory({ clock });
        const entry: MemoryEntry = await memory.save({ content: 'The user prefers tea', category: 'preferences' });
        const rewrite: DreamPass = {
          name: 'rewrite',
          phase: 'rem',
          requires: ['memory'],
          model: 'none',
          plan: async () => ({
            operations: [
              {
                op: 'memory.save',
                entry: { ...entry, content: 'The user prefers green tea' },
                expectUpdatedAt: entry.updatedAt,
                reason: 'sharper',
              },
            ],
            itemsProcessed: 1,
            notes: [],
            refusals: [],
          }),
        };
        const [a, b] = [await open(), await open()];
        const planMaxAgeMs = 3_600_000;
        const dry = await new DreamEngine(services(a, memory), [rewrite], { planMaxAgeMs }).run({ trigger: 'manual', dryRun: true });
        const stale = await new DreamEngine(services(a, memory), [rewrite], { planMaxAgeMs }).run({ trigger: 'manual', dryRun: true });
        const engine = new DreamEngine(services(b, memory), [rewrite], { planMaxAgeMs });
        expect((await engine.pendingPlans()).map((plan) => plan.planId).sort()).toEqual([dry.planId, stale.planId].sort());
        const applied = await engine.apply(dry.planId!);
        expect(applied.passes[0]).toMatchObject({ status: 'ok', applied: 1 });
        expect((await memory.get(entry.id))?.content).toBe('The user prefers green tea');
        await expect(new DreamEngine(services(a, memory), [rewrite], { planMaxAgeMs }).apply(dry.planId!)).rejects.toMatchObject({
          code: 'PLAN_APPLIED',
        });
        clock.advance(planMaxAgeMs + 1);
        expect(await engine.pendingPlans()).toMatchObject([{ planId: stale.planId, expired: true }]);
        await expect(engine.apply(stale.planId!)).rejects.toMatchObject({ code: 'PLAN_EXPIRED' });
      });
    });
  });
}
