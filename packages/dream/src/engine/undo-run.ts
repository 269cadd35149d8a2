import { loggedTurnSchema, type MemoryDraft, type MemoryEntry, memoryEntrySchema, ReverieError, skillSchema } from '@reverie/core';
import type { DreamOperation, JournalLine } from '@reverie/dream-state';
import { assertStillHeld, type DreamRun } from '@reverie/dream-state';
import type { DreamServices } from './dream-types';

export interface UndoReport {
  runId: string;
  /** Records put back as they were before the run. */
  restored: string[];
  /** Records the run created that were removed again. */
  removed: string[];
  /** Records left alone because they changed after the run, or cannot be undone. */
  kept: Array<{ record: string; reason: string }>;
}

/**
 * Reverses a run (SPEC O8), newest operation first: a record the run created is removed, a
 * record it replaced or deleted is restored from the archive — unless it changed after the run
 * (the change is newer than the dream and wins). Turns a log clear removed are appended back
 * from the archive (with their timestamps, under new seqs, so later cycles read them again).
 *
 * `lost` is the dream lock's (see `DreamLockHandle.lost`): once it is aborted, the undo stops
 * before its next write with the LOCK_LOST reason, as a crash would stop there. The run is then
 * still `complete`, not `undone`: undoing it again (from any machine) goes on where this
 * stopped — what was put back reads as changed after the run and is kept, what was removed is
 * gone — and marks it undone.
 */
export async function undoRun(folder: DreamRun, services: DreamServices, lost?: AbortSignal): Promise<UndoReport> {
  const state = folder.state;
  if (state.status === 'undone') {
    throw new ReverieError('CONFLICT', `Dream run ${state.runId} was already undone at ${state.undoneAt}.`);
  }
  if (state.status === 'running') {
    throw new ReverieError(
      'CONFLICT',
      `Dream run ${state.runId} has not finished: let it finish (or restart the process to recover it), then undo.`,
    );
  }
  const report: UndoReport = { runId: state.runId, restored: [], removed: [], kept: [] };
  const journal = await folder.readJournal();
  const plans = new Map<string, DreamOperation[]>();
  for (const pass of state.passes) plans.set(pass, (await folder.readPlan(pass)).operations);

  const restoredAt = new Map<string, string>();
  for (const line of [...journal].reverse()) {
    if (line.outcome !== 'applied') continue;
    const operation = plans.get(line.pass)?.[line.index];
    if (!operation) continue;
    await undoOperation(operation, line, { folder, services, report, restoredAt, lost });
  }
  assertStillHeld(lost);
  await folder.update({ status: 'undone', undoneAt: services.clock.now().toISOString() });
  return report;
}

interface UndoState {
  folder: DreamRun;
  services: DreamServices;
  report: UndoReport;
  /**
   * The `updatedAt` of records this undo already put back. Undoing a later operation restores
   * the record as an earlier operation left it, so for that earlier operation the record is
   * "as the run left it" even though its `updatedAt` is new.
   */
  restoredAt: Map<string, string>;
  /** The dream lock's: checked before each write. */
  lost: AbortSignal | undefined;
}

async function undoOperation(operation: DreamOperation, line: JournalLine, state: UndoState): Promise<void> {
  const { folder, services, report, restoredAt, lost } = state;
  const unchanged = (key: string, updatedAt: string) => updatedAt === line.updatedAt || updatedAt === restoredAt.get(key);
  switch (operation.op) {
    case 'memory.save': {
      const id = operation.entry.id;
      const current = await services.memory!.get(id);
      if (!current) return;
      if (!unchanged(`memory ${id}`, current.updatedAt)) {
        report.kept.push({ record: `memory ${id}`, reason: 'changed after the run' });
        return;
      }
      const archived = await folder.readArchive(line.pass, 'memory', id);
      if (archived === undefined) {
        assertStillHeld(lost);
        await services.memory!.delete(id, { ifUpdatedAt: current.updatedAt });
        report.removed.push(`memory ${id}`);
      } else {
        assertStillHeld(lost);
        const restored = await services.memory!.save(asArchived(memoryEntrySchema.parse(archived)), { ifUpdatedAt: current.updatedAt });
        restoredAt.set(`memory ${id}`, restored.updatedAt);
        report.restored.push(`memory ${id}`);
      }
      return;
    }
    case 'memory.delete': {
      const archived = await folder.readArchive(line.pass, 'memory', operation.id);
      if (archived === undefined) return;
      if (await services.memory!.get(operation.id)) {
        report.kept.push({ record: `memory ${operation.id}`, reason: 'exists again since the run' });
        return;
      }
      assertStillHeld(lost);
      const restored = await services.memory!.save(memoryEntrySchema.parse(archived), { ifUpdatedAt: null });
      restoredAt.set(`memory ${operation.id}`, restored.updatedAt);
      report.restored.push(`memory ${operation.id}`);
      return;
    }
    case 'skill.save': {
      const name = operation.skill.name;
      const current = await services.skills!.get(name);
      if (!current) return;
      if (!unchanged(`skill ${name}`, current.updatedAt)) {
        report.kept.push({ record: `skill ${name}`, reason: 'changed after the run' });
        return;
      }
      const archived = await folder.readArchive(line.pass, 'skill', name);
      if (archived === undefined) {
        assertStillHeld(lost);
        await services.skills!.delete(name, { ifUpdatedAt: current.updatedAt });
        report.removed.push(`skill ${name}`);
      } else {
        assertStillHeld(lost);
        const restored = await services.skills!.save(skillSchema.parse(archived), { ifUpdatedAt: current.updatedAt });
        restoredAt.set(`skill ${name}`, restored.updatedAt);
        report.restored.push(`skill ${name}`);
      }
      return;
    }
    case 'skill.delete': {
      const archived = await folder.readArchive(line.pass, 'skill', operation.name);
      if (archived === undefined) return;
      if (await services.skills!.get(operation.name)) {
        report.kept.push({ record: `skill ${operation.name}`, reason: 'exists again since the run' });
        return;
      }
      assertStillHeld(lost);
      const restored = await services.skills!.save(skillSchema.parse(archived), { ifUpdatedAt: null });
      restoredAt.set(`skill ${operation.name}`, restored.updatedAt);
      report.restored.push(`skill ${operation.name}`);
      return;
    }
    case 'conversation-log.clear': {
      const record = `conversation log through seq ${operation.throughSeq}`;
      const archived = await folder.readArchive(line.pass, 'conversation-log', `through-${operation.throughSeq}`);
      if (archived === undefined || !services.conversationLog) {
        report.kept.push({ record, reason: 'no archive of the cleared turns (a run from before clears were archived)' });
        return;
      }
      const turns = loggedTurnSchema.array().parse(archived);
      for (const { seq: _seq, ...turn } of turns) {
        assertStillHeld(lost);
        await services.conversationLog.append(turn);
      }
      report.restored.push(`${record} (${turns.length} turn(s))`);
      return;
    }
  }
}

/**
 * An archived entry as a draft that puts it back exactly: its importance counts as of the
 * instant it did before the run (`importanceAt`, else `lastSeenAt`), not as of the undo, and a
 * validity field it did not have (SPEC B9: a run that superseded it set `validTo`) is removed, as
 * is a lineage it did not have (SPEC B10: the run that made it supersede another added one).
 */
function asArchived(entry: MemoryEntry): MemoryDraft {
  return {
    ...entry,
    importanceAt: entry.importanceAt ?? entry.lastSeenAt,
    validFrom: entry.validFrom ?? null,
    validTo: entry.validTo ?? null,
    supersededBy: entry.supersededBy ?? null,
    lineage: entry.lineage ?? null,
    // SPEC B13: back to the tier it was in (a draft without a tier would keep the one it is in now).
    tier: entry.tier ?? 'hot',
  };
}
