import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, ReverieError } from '@reverie/core';
import { createReverie, type DreamPass, type Reverie } from 'reverie';

const DAY = 86_400_000;

/** Entries tagged `expired` whose last noting is older than `graceDays` leave memory in deep sleep. */
function expiredTagSweep(graceDays = 7): DreamPass {
  return {
    name: 'scratch-expiry',
    phase: 'deep-sleep',
    requires: ['memory'],
    model: 'none',
    async plan({ services, now }) {
      const all = await services.memory!.list();
      const tagged = all.filter((entry) => entry.tags.includes('expired'));
      const due = tagged.filter((entry) => now().getTime() - Date.parse(entry.lastSeenAt) > graceDays * DAY);
      return {
        operations: due.map((entry) => ({
          op: 'memory.delete' as const,
          id: entry.id,
          expectUpdatedAt: entry.updatedAt,
          reason: 'expired',
        })),
        itemsProcessed: tagged.length,
        notes: [`${due.length} expired entries removed`],
        refusals: [],
      };
    },
  };
}

let root: string;
let reverie: Reverie | undefined;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'reverie-host-pass-'));
});
afterEach(async () => {
  await reverie?.close();
  reverie = undefined;
  rmSync(root, { recursive: true, force: true });
});

async function seeded(clock: ManualClock, passes: DreamPass[] = [expiredTagSweep()]) {
  reverie = createReverie({ dataPath: root, clock, logger: 'silent' }).withMemory().withDreaming({ enabled: false, passes }).build();
  const memory = reverie.memory!;
  const old = await memory.save({ content: 'Draft the sprint notes', category: 'scratch', tags: ['expired'] });
  const kept = await memory.save({ content: 'Ana is allergic to peanuts', category: 'people/ana' });
  clock.advance(10 * DAY);
  const fresh = await memory.save({ content: 'Call the plumber', category: 'scratch', tags: ['expired'] });
  return { reverie, old, kept, fresh };
}

describe('a pass the host adds (withDreaming({ passes }))', () => {
  it('is in the plan, runs in its phase after the built-in ones, and reaches the ledger and status', async () => {
    const clock = new ManualClock(new Date('2026-03-01T00:00:00Z'));
    const { reverie, old, kept, fresh } = await seeded(clock);

    const plan = reverie.dreams.plan();
    expect(plan.at(-1)).toMatchObject({ name: 'scratch-expiry', phase: 'deep-sleep', status: 'would-run', host: true });
    expect(plan.findIndex((p) => p.name === 'archive-retention')).toBe(plan.length - 2);

    const report = await reverie.dreams.run();
    expect(report.passes.map((p) => p.name).at(-1)).toBe('scratch-expiry');
    expect(report.passes.at(-1)).toMatchObject({ status: 'ok', itemsProcessed: 2, applied: 1 });
    expect(await reverie.memory!.get(old.id)).toBeUndefined();
    expect(await reverie.memory!.get(fresh.id)).toBeDefined();
    expect(await reverie.memory!.get(kept.id)).toBeDefined();

    const ledger = await reverie.dreams.ledger();
    expect(ledger.find((line) => line.pass === 'scratch-expiry')).toMatchObject({ phase: 'deep-sleep', status: 'ok', applied: 1 });
    const status = await reverie.dreams.status();
    expect(status.passes.find((p) => p.pass === 'scratch-expiry')).toMatchObject({ phase: 'deep-sleep' });
    expect((await reverie.dreams.changes(report.runId)).some((change) => change.key === old.id)).toBe(true);

    // Undoable like every pass: the deleted note comes back.
    await reverie.dreams.undo(report.runId);
    expect((await reverie.memory!.get(old.id))?.content).toBe('Draft the sprint notes');
  });

  it('is dry-runnable and can be run alone by name', async () => {
    const clock = new ManualClock(new Date('2026-03-01T00:00:00Z'));
    const { reverie, old } = await seeded(clock);
    const report = await reverie.dreams.run({ pass: 'scratch-expiry', dryRun: true });
    expect(report.passes.map((p) => p.name)).toEqual(['scratch-expiry']);
    expect(report.passes[0]).toMatchObject({ status: 'ok', planned: [{ op: 'memory.delete', id: old.id }] });
    expect(await reverie.memory!.get(old.id)).toBeDefined();
  });

  it('is skipped, with the reason, when a service or model it needs is missing', async () => {
    const clock = new ManualClock(new Date('2026-03-01T00:00:00Z'));
    const needsLog: DreamPass = { ...expiredTagSweep(), name: 'log-reader', requires: ['memory', 'conversationLog'] };
    const needsModel: DreamPass = { ...expiredTagSweep(), name: 'model-user', model: 'required' };
    const { reverie } = await seeded(clock, [needsLog, needsModel]);
    const plan = reverie.dreams.plan();
    expect(plan.find((p) => p.name === 'log-reader')).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('withConversationLog'),
    });
    expect(plan.find((p) => p.name === 'model-user')).toMatchObject({ status: 'skipped', reason: expect.stringContaining('model') });
    const report = await reverie.dreams.run();
    expect(report.passes.find((p) => p.name === 'log-reader')).toMatchObject({ status: 'skipped' });
    expect(report.passes.find((p) => p.name === 'model-user')).toMatchObject({ status: 'skipped' });
  });

  it('refuses a pass that is not one, or that takes a built-in name, saying which field', () => {
    const build = (passes: unknown[]) => () =>
      createReverie({ dataPath: root, logger: 'silent' })
        .withMemory()
        .withDreaming({ enabled: false, passes: passes as DreamPass[] })
        .build();
    for (const [passes, path] of [
      [[{ ...expiredTagSweep(), name: 'promotion' }], 'name'],
      [[{ ...expiredTagSweep(), name: 'Scratch Expiry' }], 'name'],
      [[expiredTagSweep(), expiredTagSweep()], 'name'],
      [[{ ...expiredTagSweep(), phase: 'nap' }], 'phase'],
      [[{ ...expiredTagSweep(), requires: ['calendar'] }], 'requires'],
      [[{ ...expiredTagSweep(), model: 'maybe' }], 'model'],
      [[{ ...expiredTagSweep(), plan: 'run' }], 'plan'],
    ] as const) {
      let error: unknown;
      try {
        build([...passes])();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ReverieError);
      expect((error as ReverieError).code).toBe('INVALID_OPTIONS');
      expect(JSON.stringify((error as ReverieError).details)).toContain(path);
    }
  });
});
