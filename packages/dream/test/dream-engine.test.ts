import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  type ILongTermMemory,
  InMemoryLongTermMemory,
  ManualClock,
  type MemoryEntry,
  newId,
  RecordingLogger,
  supersede,
  supersedingLineage,
} from '@reverie/core';
import { ArchiveRetentionPass } from '../src/passes/archive-retention/archive-retention-pass';
import { DreamEngine } from '../src/engine/dream-engine';
import type { DreamPass, DreamServices, PassContext } from '../src/engine/dream-types';
import { ImportanceDecayPass } from '../src/passes/importance-decay/importance-decay-pass';
import { failuresDir, RunFolder, runsDir } from '@reverie/file-store/internal';
import { FileDreamStateStore } from '@reverie/file-store';
import { failingPass, freshEngineServices } from './__fixtures__/engine-services';
import { textModel } from './__fixtures__/text-model';
import type { DreamOperation } from '@reverie/dream-state';

let dataPath: string;
let clock: ManualClock;
let memory: ILongTermMemory;
let services: DreamServices;
beforeEach(() => void ({ dataPath, clock, memory, services } = freshEngineServices('reverie-engine-')));
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

/** A pass that merges every entry whose content starts with `dup:` into one, the way consolidation does. */
function mergePass(name = 'memory-consolidation', extra: Partial<DreamPass> = {}): DreamPass {
  return {
    name,
    phase: 'rem',
    requires: ['memory'],
    model: 'none',
    async plan(context: PassContext) {
      const sources = (await context.services.memory!.list()).filter((e) => e.content.startsWith('dup:'));
      if (sources.length < 2) return { operations: [], itemsProcessed: 0, notes: [], refusals: [] };
      const merged: MemoryEntry = {
        ...sources[0]!,
        id: newId(),
        content: 'merged duplicate',
        reinforcementCount: sources.reduce((sum, e) => sum + e.reinforcementCount, 0),
      };
      const operations: DreamOperation[] = [
        ...sources.map((e): DreamOperation => ({ op: 'memory.delete', id: e.id, expectUpdatedAt: e.updatedAt, reason: 'merged' })),
        { op: 'memory.save', entry: merged, expectUpdatedAt: null, reason: 'merge' },
      ];
      return { operations, itemsProcessed: sources.length, notes: ['merged'], refusals: [] };
    },
    ...extra,
  };
}

describe('DreamEngine', () => {
  it('saves before it deletes, journals every step and leaves a complete run folder', async () => {
    const a = await memory.save({ content: 'dup: one' });
    const b = await memory.save({ content: 'dup: two' });
    const engine = new DreamEngine(services, [mergePass()]);
    const report = await engine.run({ trigger: 'manual' });
    expect(report.passes[0]).toMatchObject({ name: 'memory-consolidation', status: 'ok', applied: 3, conflicts: 0 });
    expect((await memory.list()).map((e) => e.content)).toEqual(['merged duplicate']);

    const folder = (await RunFolder.open(dataPath, report.runId))!;
    expect(folder.state.status).toBe('complete');
    const plan = await folder.readPlan('memory-consolidation');
    expect(plan.operations.map((op) => op.op)).toEqual(['memory.save', 'memory.delete', 'memory.delete']);
    expect((await folder.readJournal()).map((line) => [line.index, line.outcome])).toEqual([
      [0, 'applied'],
      [1, 'applied'],
      [2, 'applied'],
    ]);
    expect(await folder.readArchive('memory-consolidation', 'memory', a.id)).toEqual(a);
    expect(await folder.readArchive('memory-consolidation', 'memory', b.id)).toEqual(b);
    expect(readFileSync(join(folder.dir, 'summary.md'), 'utf8')).toContain('| memory-consolidation | rem | ok |');
    expect(folder.dir.startsWith(join(runsDir(dataPath), '2026-06-01-'))).toBe(true);
  });

  it('undoes a run: restores what it deleted and removes what it created', async () => {
    const a = await memory.save({ content: 'dup: one', importance: 0.7, createdAt: '2026-01-01T00:00:00.000Z' });
    const b = await memory.save({ content: 'dup: two' });
    const keep = await memory.save({ content: 'unrelated' });
    const engine = new DreamEngine(services, [mergePass()]);
    const { runId } = await engine.run({ trigger: 'manual' });
    const undo = await engine.undo(runId);
    expect(undo.restored.sort()).toEqual([`memory ${a.id}`, `memory ${b.id}`].sort());
    expect(undo.removed).toHaveLength(1);
    const after = await memory.list();
    const strip = ({ updatedAt: _u, ...rest }: MemoryEntry) => rest;
    expect(after.map(strip).sort((x, y) => x.id.localeCompare(y.id))).toEqual(
      [a, b, keep].map(strip).sort((x, y) => x.id.localeCompare(y.id)),
    );
    await expect(engine.undo(runId)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(engine.undo('000000000000')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
  });

  it('undoes a supersession: the older fact holds again, the newer one loses the validFrom and the lineage the run gave it (SPEC B9, B10)', async () => {
    const older = await memory.save({ content: 'Lives in Lyon', createdAt: '2025-01-01T00:00:00.000Z' });
    const newer = await memory.save({ content: 'Lives in Porto', createdAt: '2025-09-01T00:00:00.000Z' });
    const supersessionPass: DreamPass = {
      name: 'memory-consolidation',
      phase: 'rem',
      requires: ['memory'],
      model: 'none',
      async plan() {
        const result = supersede(older, newer);
        const operations: DreamOperation[] = [
          { op: 'memory.save', entry: result.older, expectUpdatedAt: older.updatedAt, reason: 'superseded' },
          {
            op: 'memory.save',
            entry: { ...result.newer, lineage: supersedingLineage(result.newer, older, { at: result.change.at }) },
            expectUpdatedAt: newer.updatedAt,
            reason: 'supersedes',
          },
        ];
        return { operations, itemsProcessed: 2, notes: [], refusals: [] };
      },
    };
    const engine = new DreamEngine(services, [supersessionPass]);
    const { runId } = await engine.run({ trigger: 'manual' });
    expect(await memory.get(older.id)).toMatchObject({ validTo: '2025-09-01T00:00:00.000Z', supersededBy: newer.id });
    expect((await memory.get(newer.id))?.lineage?.ancestors?.map((ancestor) => [ancestor.id, ancestor.relation])).toEqual([
      [older.id, 'superseded'],
    ]);
    expect((await memory.search({ text: 'lives' })).map((hit) => hit.entry.id)).toEqual([newer.id]);
    const undo = await engine.undo(runId);
    expect(undo.restored.sort()).toEqual([`memory ${older.id}`, `memory ${newer.id}`].sort());
    // importanceAt as restored is the instant the stored importance counted as of before (lastSeenAt): the same value.
    const strip = ({ updatedAt: _u, importanceAt: _i, ...rest }: MemoryEntry) => rest;
    expect(strip((await memory.get(older.id))!)).toEqual(strip(older));
    expect(strip((await memory.get(newer.id))!)).toEqual(strip(newer));
    expect((await memory.search({ text: 'lives' })).map((hit) => hit.entry.id).sort()).toEqual([older.id, newer.id].sort());
  });

  it('keeps, on undo, a record the agent changed after the run', async () => {
    await memory.save({ content: 'dup: one' });
    await memory.save({ content: 'dup: two' });
    const engine = new DreamEngine(services, [mergePass()]);
    const { runId } = await engine.run({ trigger: 'manual' });
    const merged = (await memory.list())[0]!;
    await memory.save({ ...merged, content: 'merged duplicate, edited by the agent' });
    const undo = await engine.undo(runId);
    expect(undo.kept).toEqual([{ record: `memory ${merged.id}`, reason: 'changed after the run' }]);
    expect((await memory.get(merged.id))?.content).toBe('merged duplicate, edited by the agent');
  });

  it('undoes two passes that touched the same entry back to the state before the run', async () => {
    const old = await memory.save({ content: 'dup: old fact', importance: 0.9, lastSeenAt: '2026-01-01T00:00:00.000Z' });
    await memory.save({ content: 'dup: old fact again', importance: 0.4, lastSeenAt: '2026-05-30T00:00:00.000Z' });
    const engine = new DreamEngine(services, [new ImportanceDecayPass({ write: true }), mergePass()]);
    const { runId, passes } = await engine.run({ trigger: 'manual' });
    expect(passes.map((p) => p.status)).toEqual(['ok', 'ok']);
    await engine.undo(runId);
    expect((await memory.get(old.id))?.importance).toBe(0.9);
    expect(await memory.list()).toHaveLength(2);
  });

  it('isolates a failing pass, records it, and runs the rest', async () => {
    await memory.save({ content: 'dup: one' });
    await memory.save({ content: 'dup: two' });
    const engine = new DreamEngine(services, [failingPass, mergePass('promotion', { phase: 'deep-sleep' })]);
    const report = await engine.run({ trigger: 'schedule' });
    expect(report.passes.map((p) => [p.name, p.status])).toEqual([
      ['episode-extraction', 'failed'],
      ['promotion', 'ok'],
    ]);
    const deadLetter = JSON.parse(readFileSync(join(failuresDir(dataPath), `${report.runId}.json`), 'utf8'));
    expect(deadLetter.passes).toEqual([{ name: 'episode-extraction', error: 'model exploded' }]);
    expect((await RunFolder.open(dataPath, report.runId))!.state.status).toBe('failed');
  });

  it('fails a pass whose prompt or reply could not be saved in the run folder, and applies none of its plan', async () => {
    await memory.save({ content: 'dup: one' });
    await memory.save({ content: 'dup: two' });
    const asking = mergePass('memory-consolidation', {
      model: 'required',
      async plan(context: PassContext) {
        await context.gateway!.ask({
          pass: 'memory-consolidation',
          directiveFile: 'dream.md',
          builtInDirective: 'Reply {}.',
          data: 'data',
          schema: z.object({}),
        });
        return mergePass().plan(context);
      },
    });
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const write = RunFolder.prototype.writeArtifact;
    const spy = vi.spyOn(RunFolder.prototype, 'writeArtifact').mockImplementation(function (this: RunFolder, name, content) {
      return name.endsWith('.reply.md') ? Promise.reject(full) : write.call(this, name, content);
    });
    try {
      const report = await new DreamEngine({ ...services, model: textModel(() => ({})) }, [asking]).run({ trigger: 'manual' });
      expect(report.passes[0]).toMatchObject({ name: 'memory-consolidation', status: 'failed', error: expect.stringContaining('ENOSPC') });
      expect((await memory.list()).map((e) => e.content).sort()).toEqual(['dup: one', 'dup: two']);
    } finally {
      spy.mockRestore();
    }
  });

  it('skips passes whose services or model are missing, and says why', async () => {
    const needsLog: DreamPass = { ...mergePass('preference-inference'), requires: ['memory', 'conversationLog'] };
    const needsModel: DreamPass = { ...mergePass('skill-gap'), requires: [], model: 'required' };
    const report = await new DreamEngine(services, [needsLog, needsModel]).run({ trigger: 'manual' });
    expect(report.passes).toEqual([
      { name: 'preference-inference', phase: 'rem', status: 'skipped', reason: 'needs a conversation log (.withConversationLog())' },
      { name: 'skill-gap', phase: 'rem', status: 'skipped', reason: 'needs a language model' },
    ]);
  });

  it('tells onPass when each pass starts and finishes, and survives a callback that throws', async () => {
    await memory.save({ content: 'dup: one' });
    await memory.save({ content: 'dup: two' });
    const needsModel: DreamPass = { ...mergePass('skill-gap'), requires: [], model: 'required' };
    const seen: string[] = [];
    const report = await new DreamEngine(services, [mergePass(), needsModel]).run({
      trigger: 'manual',
      onPass(progress) {
        seen.push(
          progress.type === 'start'
            ? `start ${progress.name} ${progress.index + 1}/${progress.total}`
            : `finish ${progress.outcome.name} ${progress.outcome.status}`,
        );
        throw new Error('a broken progress line');
      },
    });
    expect(seen).toEqual(['start memory-consolidation 1/2', 'finish memory-consolidation ok', 'finish skill-gap skipped']);
    expect(report.passes.map((pass) => pass.status)).toEqual(['ok', 'skipped']);
    expect((await memory.list()).map((e) => e.content)).toEqual(['merged duplicate']);
  });

  it('does nothing in a dry run but report the plan', async () => {
    await memory.save({ content: 'dup: one' });
    await memory.save({ content: 'dup: two' });
    const before = await memory.list();
    const report = await new DreamEngine(services, [mergePass()]).run({ trigger: 'manual', dryRun: true });
    expect(report.passes[0]).toMatchObject({ status: 'ok', applied: 0 });
    expect(report.passes[0]!.status === 'ok' && report.passes[0]!.planned?.map((op) => op.op)).toEqual([
      'memory.save',
      'memory.delete',
      'memory.delete',
    ]);
    expect(await memory.list()).toEqual(before);
    // The only file a dry run writes is its plan, for apply.
    expect(readdirSync(join(dataPath, '_system', 'dreams'))).toEqual(['plans']);
    expect(readdirSync(join(dataPath, '_system', 'dreams', 'plans'))).toEqual([report.planId]);
  });

  it('does not clobber an entry the agent changed after the pass read it', async () => {
    const a = await memory.save({ content: 'dup: one' });
    await memory.save({ content: 'dup: two' });
    const racing = mergePass('memory-consolidation', {
      async plan(context) {
        const plan = await mergePass().plan(context);
        await context.services.memory!.save({ id: a.id, content: 'dup: one, corrected by the agent just now' });
        return plan;
      },
    });
    const report = await new DreamEngine(services, [racing]).run({ trigger: 'manual' });
    expect(report.passes[0]).toMatchObject({ applied: 2, conflicts: 1 });
    expect((await memory.get(a.id))?.content).toBe('dup: one, corrected by the agent just now');
  });

  it('finishes an interrupted apply on recovery, never leaving a source without its merge', async () => {
    const a = await memory.save({ content: 'dup: one' });
    const b = await memory.save({ content: 'dup: two' });
    const context = { services } as PassContext;
    const plan = await mergePass().plan(context);
    if ('skipped' in plan) throw new Error('unexpected');
    const folder = await RunFolder.create(dataPath, 'aaaaaaaaaaaa', 'manual', clock.now());
    const { orderOperations, applyOperation } = await import('../src/engine/operation-applier');
    const ordered = orderOperations(plan.operations);
    await folder.writePlan({ pass: 'memory-consolidation', operations: ordered, notes: [], refusals: [] });
    // The process "dies" right after the merged entry was saved, before the journal line.
    await applyOperation(ordered[0]!, services);

    const engine = new DreamEngine(services, [mergePass()]);
    expect(await engine.recover()).toEqual(['aaaaaaaaaaaa']);
    const live = await memory.list();
    expect(live.map((e) => e.content)).toEqual(['merged duplicate']);
    expect(await memory.get(a.id)).toBeUndefined();
    expect(await memory.get(b.id)).toBeUndefined();
    expect((await RunFolder.open(dataPath, 'aaaaaaaaaaaa'))!.state.status).toBe('interrupted');
    expect(await engine.recover()).toEqual([]);
  });

  it('recovers from a power cut that lost the last journal lines: deletes count as applied, and undo restores them', async () => {
    const a = await memory.save({ content: 'dup: one' });
    const b = await memory.save({ content: 'dup: two' });
    const c = await memory.save({ content: 'dup: three' });
    const plan = await mergePass().plan({ services } as PassContext);
    if ('skipped' in plan) throw new Error('unexpected');
    const folder = await RunFolder.create(dataPath, 'bbbbbbbbbbbb', 'manual', clock.now());
    const { orderOperations, applyOperation, archiveOperations } = await import('../src/engine/operation-applier');
    const ordered = orderOperations(plan.operations);
    await folder.writePlan({ pass: 'memory-consolidation', operations: ordered, notes: [], refusals: [] });
    await archiveOperations(folder, 'memory-consolidation', ordered, services);
    // Every operation was applied, but only the first journal line reached the disk.
    const outcomes = [];
    for (const operation of ordered) outcomes.push(await applyOperation(operation, services));
    const writer = await folder.openJournal();
    await writer.append({ pass: 'memory-consolidation', index: 0, ...outcomes[0]! });
    await writer.close();

    const engine = new DreamEngine(services, [mergePass()]);
    expect(await engine.recover()).toEqual(['bbbbbbbbbbbb']);
    const journal = await folder.readJournal();
    expect(journal.map((line) => [line.index, line.outcome])).toEqual([0, 1, 2, 3].map((index) => [index, 'applied']));
    await engine.undo('bbbbbbbbbbbb');
    expect((await memory.list()).map((entry) => entry.id).sort()).toEqual([a.id, b.id, c.id].sort());
  });

  it('ends the cycle cleanly when a user turn aborts it, applying nothing of the interrupted pass', async () => {
    await memory.save({ content: 'dup: one' });
    await memory.save({ content: 'dup: two' });
    const controller = new AbortController();
    const waitsForModel: DreamPass = {
      ...mergePass(),
      async plan(context) {
        const aborted = new Promise((_, reject) =>
          context.signal.addEventListener('abort', () => reject(new Error('aborted by a user turn'))),
        );
        controller.abort(new Error('A user turn started'));
        await aborted;
        throw new Error('unreachable');
      },
    };
    const activity = { isUserActive: () => false, userTurnSignal: () => controller.signal };
    const engine = new DreamEngine({ ...services, activity }, [waitsForModel, mergePass('promotion', { phase: 'deep-sleep' })]);
    const report = await engine.run({ trigger: 'schedule' });
    expect(report.interrupted).toBe('A user turn started');
    expect(report.passes.map((p) => p.name)).toEqual(['memory-consolidation']);
    expect(await memory.list()).toHaveLength(2);
  });

  it('refuses unknown passes and phases, naming the valid ones', async () => {
    const engine = new DreamEngine(services, [mergePass()]);
    await expect(engine.run({ trigger: 'manual', passes: ['nope'] })).rejects.toMatchObject({
      code: 'UNKNOWN_PASS',
      message: expect.stringContaining('memory-consolidation'),
    });
    await expect(engine.run({ trigger: 'manual', pass: 'nope' })).rejects.toMatchObject({ code: 'UNKNOWN_PASS' });
    await expect(engine.run({ trigger: 'manual', phase: 'nap' as never })).rejects.toMatchObject({
      code: 'UNKNOWN_PHASE',
      message: expect.stringContaining('light-sleep, rem, deep-sleep'),
    });
    expect(existsSync(join(dataPath, '_system'))).toBe(false);
  });

  it('runs only the passes of one phase, or one named pass (SPEC O1)', async () => {
    const engine = new DreamEngine(services, [
      new ImportanceDecayPass(),
      mergePass(),
      mergePass('episode-extraction'),
      new ArchiveRetentionPass(),
    ]);
    const rem = await engine.run({ trigger: 'manual', phase: 'rem' });
    expect(rem.passes.map((p) => p.name)).toEqual(['memory-consolidation', 'episode-extraction']);
    const deep = await engine.run({ trigger: 'manual', phase: 'deep-sleep' });
    expect(deep.passes.map((p) => p.name)).toEqual(['archive-retention']);
    const one = await engine.run({ trigger: 'manual', pass: 'episode-extraction' });
    expect(one.passes.map((p) => p.name)).toEqual(['episode-extraction']);
    const named = await engine.run({ trigger: 'manual', passes: ['archive-retention', 'importance-decay'] });
    expect(named.passes.map((p) => p.name)).toEqual(['importance-decay', 'archive-retention']);
  });
});

describe('importance-decay pass with write: true', () => {
  it('stores the same decay whether cycles run daily or once (SPEC D7)', async () => {
    const entry = await memory.save({ content: 'old fact', importance: 0.95, lastSeenAt: '2026-01-01T00:00:00.000Z' });
    const daily = new DreamEngine(services, [new ImportanceDecayPass({ write: true })]);
    for (let day = 0; day < 60; day++) {
      await daily.run({ trigger: 'schedule' });
      clock.advance(86_400_000);
    }
    const dailyImportance = (await memory.get(entry.id))!.importance;

    const otherPath = mkdtempSync(join(tmpdir(), 'reverie-engine-once-'));
    const onceClock = new ManualClock('2026-06-01T00:00:00.000Z');
    const onceMemory = new InMemoryLongTermMemory({ clock: onceClock });
    const copy = await onceMemory.save({ content: 'old fact', importance: 0.95, lastSeenAt: '2026-01-01T00:00:00.000Z' });
    const once = new DreamEngine(
      {
        dataPath: otherPath,
        clock: onceClock,
        state: new FileDreamStateStore({ dataPath: otherPath, clock: onceClock }),
        logger: new RecordingLogger(),
        memory: onceMemory,
      },
      [new ImportanceDecayPass({ write: true })],
    );
    await once.run({ trigger: 'schedule' });
    onceClock.advance(59 * 86_400_000);
    await once.run({ trigger: 'schedule' });
    rmSync(otherPath, { recursive: true, force: true });
    expect(Math.abs(dailyImportance - (await onceMemory.get(copy.id))!.importance)).toBeLessThan(0.003);
    expect(dailyImportance).toBeLessThan(0.95);
    expect(dailyImportance).toBeGreaterThanOrEqual(0.1);
  });

  it('never stamps an entry as seen', async () => {
    const entry = await memory.save({ content: 'fact', importance: 0.8, lastSeenAt: '2026-01-01T00:00:00.000Z' });
    await new DreamEngine(services, [new ImportanceDecayPass({ write: true })]).run({ trigger: 'manual' });
    const after = (await memory.get(entry.id))!;
    expect(after.lastSeenAt).toBe(entry.lastSeenAt);
    expect(after.importance).toBeLessThan(0.8);
  });
});

describe('archive-retention pass', () => {
  it('purges run folders and dead letters past the retention, keeping recent ones', async () => {
    await memory.save({ content: 'dup: one' });
    await memory.save({ content: 'dup: two' });
    const engine = new DreamEngine(services, [failingPass, mergePass(), new ArchiveRetentionPass({ retentionDays: 90 })]);
    const old = await engine.run({ trigger: 'manual', passes: ['episode-extraction', 'memory-consolidation'] });
    clock.advance(91 * 86_400_000);
    const recent = await engine.run({ trigger: 'manual', passes: ['episode-extraction'] });
    await engine.run({ trigger: 'manual', passes: ['archive-retention'] });
    const folders = readdirSync(runsDir(dataPath));
    expect(folders.some((name) => name.endsWith(old.runId))).toBe(false);
    expect(folders.some((name) => name.endsWith(recent.runId))).toBe(true);
    expect(readdirSync(failuresDir(dataPath))).toEqual([`${recent.runId}.json`]);
  });

  it('purges what a plan saved before the dream state had an interface names by path', async () => {
    const engine = new DreamEngine(services, [failingPass]);
    const old = await engine.run({ trigger: 'manual' });
    const runFolder = readdirSync(runsDir(dataPath)).find((name) => name.endsWith(old.runId))!;
    await new ArchiveRetentionPass().commit(services, {
      runs: [join(runsDir(dataPath), runFolder)],
      failures: [join(failuresDir(dataPath), `${old.runId}.json`)],
    });
    expect(readdirSync(runsDir(dataPath))).toEqual([]);
    expect(readdirSync(failuresDir(dataPath))).toEqual([]);
  });
});

describe('passes that fail after planning clean-up', () => {
  it('applies the clean-up operations, records the pass as failed and leaves a dead letter', async () => {
    const doomed = await memory.save({ content: 'scratch note' });
    const cleanUp: DreamPass = {
      name: 'preference-inference',
      phase: 'rem',
      requires: ['memory'],
      model: 'none',
      async plan() {
        return {
          operations: [{ op: 'memory.delete', id: doomed.id, expectUpdatedAt: doomed.updatedAt, reason: 'clean-up' }],
          itemsProcessed: 1,
          notes: [],
          refusals: [],
          failure: 'MODEL_REPLY_INVALID: the reply was not JSON',
        };
      },
    };
    const report = await new DreamEngine(services, [cleanUp]).run({ trigger: 'manual' });
    expect(report.passes[0]).toMatchObject({ status: 'failed', applied: 1, error: 'MODEL_REPLY_INVALID: the reply was not JSON' });
    expect(await memory.get(doomed.id)).toBeUndefined();
    expect(readdirSync(failuresDir(dataPath))).toEqual([`${report.runId}.json`]);
    expect((await RunFolder.open(dataPath, report.runId))!.state.status).toBe('failed');
  });
});

describe('conversation-log horizon', () => {
  it('is the lowest read position of the other log readers, and Infinity when there are none', async () => {
    const horizons: number[] = [];
    const reader = (name: string, through: number): DreamPass => ({
      ...mergePass(name),
      conversationLogReadThrough: async () => through,
    });
    const asker: DreamPass = {
      ...mergePass('preference-inference'),
      conversationLogReadThrough: async () => 1,
      async plan(context) {
        horizons.push(await context.conversationLogHorizon());
        return { operations: [], itemsProcessed: 0, notes: [], refusals: [] };
      },
    };
    await new DreamEngine(services, [reader('episode-extraction', 40), reader('skill-gap', 25), asker]).run({
      trigger: 'manual',
      passes: ['preference-inference'],
    });
    await new DreamEngine(services, [asker]).run({ trigger: 'manual' });
    expect(horizons).toEqual([25, Number.POSITIVE_INFINITY]);
  });

  it('ignores readers that can never run here (a missing service, no model)', async () => {
    const horizons: number[] = [];
    const reader = (name: string, through: number, extra: Partial<DreamPass>): DreamPass => ({
      ...mergePass(name),
      ...extra,
      conversationLogReadThrough: async () => through,
    });
    const asker: DreamPass = {
      ...mergePass('preference-inference'),
      async plan(context) {
        horizons.push(await context.conversationLogHorizon());
        return { operations: [], itemsProcessed: 0, notes: [], refusals: [] };
      },
    };
    const passes = [
      reader('episode-extraction', 40, {}),
      reader('skill-gap', 0, { requires: ['skills'] }),
      reader('modelled', 0, { model: 'required' }),
      asker,
    ];
    await new DreamEngine({ ...services, skills: undefined, model: undefined }, passes).run({
      trigger: 'manual',
      passes: ['preference-inference'],
    });
    expect(horizons).toEqual([40]);
  });
});
