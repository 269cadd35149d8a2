import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@reverie/core';
import { createReverie, type Reverie } from 'reverie';

let dataPath: string;
let reverie: Reverie | undefined;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-dream-changes-'));
});
afterEach(async () => {
  await reverie?.close();
  reverie = undefined;
  rmSync(dataPath, { recursive: true, force: true });
});

/** Two wordings of one fact, which the consolidation's pre-pass merges without a model. */
async function mergeTwoDuplicates(clock: ManualClock) {
  reverie = createReverie({ dataPath, clock }).withMemory().withDreaming().build();
  const first = await reverie.memory!.save({ content: 'The deploy window is Tuesday', category: 'work/deploys' });
  const second = await reverie.memory!.save({ content: 'the deploy window is tuesday.', category: 'work/deploys' });
  clock.advance(60_000);
  const report = await reverie.dreams.run({ phase: 'rem' });
  const [merged] = await reverie.memory!.list();
  return { reverie, first, second, merged: merged!, runId: report.runId };
}

describe('reverie.dreams.changes: what a run changed (SPEC O7, O8)', () => {
  it('lists each record the run touched, before and after, with the pass and the reason', async () => {
    const { reverie, first, second, merged, runId } = await mergeTwoDuplicates(new ManualClock('2026-06-01T00:00:00Z'));
    const changes = await reverie.dreams.changes(runId);
    expect(changes).toHaveLength(3);
    const created = changes.find((change) => change.action === 'created')!;
    expect(created).toMatchObject({
      runId,
      pass: 'memory-consolidation',
      kind: 'memory',
      key: merged.id,
      outcome: 'applied',
      reason: expect.stringContaining('duplicates merged'),
    });
    expect(created.before).toBeUndefined();
    expect(created.after).toMatchObject({ id: merged.id, content: merged.content, updatedAt: merged.updatedAt });
    const deleted = changes.filter((change) => change.action === 'deleted');
    expect(deleted.map((change) => change.key).sort()).toEqual([first.id, second.id].sort());
    for (const change of deleted) {
      expect(change.reason).toContain(`merged into ${merged.id}`);
      expect(change.after).toBeUndefined();
    }
    expect(deleted.find((change) => change.key === first.id)!.before).toMatchObject({
      id: first.id,
      content: 'The deploy window is Tuesday',
    });
  });

  it('answers RUN_NOT_FOUND for an unknown run', async () => {
    reverie = createReverie({ dataPath }).withMemory().withDreaming().build();
    await expect(reverie.dreams.changes('000000000000')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
  });
});

describe('reverie.dreams.history: which runs touched a record', () => {
  it('names the run that deleted a merged source and the one that created the merge, and says when that run was undone', async () => {
    const { reverie, first, merged, runId } = await mergeTwoDuplicates(new ManualClock('2026-06-01T00:00:00Z'));
    const ofSource = await reverie.dreams.history({ kind: 'memory', key: first.id });
    expect(ofSource).toEqual([
      expect.objectContaining({
        runId,
        action: 'deleted',
        runStatus: 'complete',
        trigger: 'manual',
        startedAt: '2026-06-01T00:01:00.000Z',
        reason: expect.stringContaining(merged.id),
      }),
    ]);
    expect(await reverie.dreams.history({ kind: 'memory', key: merged.id })).toEqual([
      expect.objectContaining({ runId, action: 'created' }),
    ]);
    expect(await reverie.dreams.history({ kind: 'memory', key: '0123456789ab' })).toEqual([]);

    await reverie.dreams.undo(runId);
    expect(await reverie.dreams.history({ kind: 'memory', key: first.id })).toEqual([
      expect.objectContaining({ runId, runStatus: 'undone', undoneAt: expect.any(String) }),
    ]);
  });

  it('lists the runs oldest first when several touched one record', async () => {
    const clock = new ManualClock('2026-06-01T00:00:00Z');
    const { reverie, merged, runId } = await mergeTwoDuplicates(clock);
    await reverie.memory!.save({ content: 'The deploy window is Tuesday!', category: 'work/deploys' });
    clock.advance(3_600_000);
    const second = await reverie.dreams.run({ phase: 'rem' });
    const history = await reverie.dreams.history({ kind: 'memory', key: merged.id });
    expect(history.map((item) => [item.runId, item.action])).toEqual([
      [runId, 'created'],
      [second.runId, 'deleted'],
    ]);
  });

  it('refuses a record it cannot name with INVALID_INPUT', async () => {
    reverie = createReverie({ dataPath }).withMemory().withDreaming().build();
    await expect(reverie.dreams.history({ kind: 'memory', key: '' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(reverie.dreams.history({ kind: 'note' as never, key: 'x' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('reverie.dreams.ledger', () => {
  it('reads the ledger lines, all or within a window', async () => {
    const clock = new ManualClock('2026-06-01T00:00:00Z');
    const { reverie, runId } = await mergeTwoDuplicates(clock);
    const lines = await reverie.dreams.ledger();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.find((line) => line.pass === 'memory-consolidation')).toMatchObject({ runId, status: 'ok', applied: 3, phase: 'rem' });
    clock.advance(48 * 3_600_000);
    expect(await reverie.dreams.ledger({ windowHours: 24 })).toEqual([]);
    expect(await reverie.dreams.ledger({ windowHours: 72 })).toEqual(lines);
    await expect(reverie.dreams.ledger({ windowHours: -1 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
