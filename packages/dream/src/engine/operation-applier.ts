import { isReverieError, type MemoryEntry, type Skill, tierOf } from '@reverie/core';
import type { ArchiveRecord, DreamOperation, JournalLine } from '@reverie/dream-state';
import { assertStillHeld, type DreamRun } from '@reverie/dream-state';
import type { DreamServices } from './dream-types';
import { faultPoint } from './fault-points';

/** Saves first, then deletes, then log clears: a crash in between never loses a source (SPEC B2). */
export function orderOperations(operations: readonly DreamOperation[]): DreamOperation[] {
  const rank = (operation: DreamOperation) => (operation.op.endsWith('.save') ? 0 : operation.op.endsWith('.delete') ? 1 : 2);
  return [...operations].sort((a, b) => rank(a) - rank(b));
}

const sameMemory = (a: MemoryEntry, b: Omit<MemoryEntry, 'updatedAt'>) =>
  a.content === b.content &&
  a.category === b.category &&
  a.importance === b.importance &&
  (a.importanceAt ?? a.lastSeenAt) === (b.importanceAt ?? b.lastSeenAt) &&
  a.reinforcementCount === b.reinforcementCount &&
  a.createdAt === b.createdAt &&
  a.lastSeenAt === b.lastSeenAt &&
  JSON.stringify(a.tags) === JSON.stringify(b.tags) &&
  JSON.stringify(a.metadata) === JSON.stringify(b.metadata) &&
  sameInstant(a.validFrom, b.validFrom) &&
  sameInstant(a.validTo, b.validTo) &&
  a.supersededBy === b.supersededBy &&
  tierOf(a) === tierOf(b);

/** Two optional timestamps name the same instant (a store may give back another spelling, PostgreSQL's UTC). */
const sameInstant = (a: string | undefined, b: string | undefined) =>
  a === undefined ? b === undefined : b !== undefined && Date.parse(a) === Date.parse(b);

const sameSkill = (a: Skill, b: Skill) =>
  a.summary === b.summary && a.content === b.content && JSON.stringify(a.seeAlso) === JSON.stringify(b.seeAlso);

/**
 * Writes the pre-image of every record the operations will replace or delete into the run's
 * archive, before any of them is applied. Records that already changed since the pass read them
 * are not archived: their operations will be skipped as conflicts. Every archive file is on disk
 * (written atomically, fsynced) when this returns.
 */
export async function archiveOperations(
  folder: DreamRun,
  pass: string,
  operations: readonly DreamOperation[],
  services: DreamServices,
): Promise<void> {
  const records: ArchiveRecord[] = [];
  for (const operation of operations) {
    if ((operation.op === 'memory.save' && operation.expectUpdatedAt !== null) || operation.op === 'memory.delete') {
      const id = operation.op === 'memory.save' ? operation.entry.id : operation.id;
      const current = await services.memory!.get(id);
      if (current && current.updatedAt === operation.expectUpdatedAt) records.push({ kind: 'memory', key: id, record: current });
    } else if ((operation.op === 'skill.save' && operation.expectUpdatedAt !== null) || operation.op === 'skill.delete') {
      const name = operation.op === 'skill.save' ? operation.skill.name : operation.name;
      const current = await services.skills!.get(name);
      if (current && current.updatedAt === operation.expectUpdatedAt) records.push({ kind: 'skill', key: name, record: current });
    } else if (operation.op === 'conversation-log.clear' && services.conversationLog) {
      // Written once: archiving again after a crash that followed the clear would keep less.
      const key = `through-${operation.throughSeq}`;
      if ((await folder.readArchive(pass, 'conversation-log', key)) !== undefined) continue;
      const turns = (await services.conversationLog.read()).filter((turn) => turn.seq <= operation.throughSeq);
      records.push({ kind: 'conversation-log', key, record: turns });
    }
  }
  // Written at once: their fsyncs overlap and the folder is fsynced once.
  await folder.archive(pass, records);
}

/** What the engine checks besides the records themselves before applying an operation. */
export interface ApplyChecks {
  /**
   * The highest conversation-log seq every other log reader has read, now. A clear beyond it is
   * a conflict: turns a reader has not read survive (the precondition of `conversation-log.clear`,
   * as `expectUpdatedAt` is for records).
   */
  conversationLogHorizon?: () => Promise<number>;
}

/** The record an operation is about, as reports name it. */
export function operationTarget(operation: DreamOperation): string {
  switch (operation.op) {
    case 'memory.save':
      return `memory ${operation.entry.id}`;
    case 'memory.delete':
      return `memory ${operation.id}`;
    case 'skill.save':
      return `skill ${operation.skill.name}`;
    case 'skill.delete':
      return `skill ${operation.name}`;
    case 'conversation-log.clear':
      return `conversation log through seq ${operation.throughSeq}`;
  }
}

/**
 * Applies one operation and says what happened. Idempotent: an operation that was applied
 * before a crash but not journalled is recognised (the record already looks as the operation
 * wanted) and counted as applied, so recovery can simply apply the rest again.
 */
export async function applyOperation(
  operation: DreamOperation,
  services: DreamServices,
  checks: ApplyChecks = {},
): Promise<Omit<JournalLine, 'pass' | 'index'>> {
  switch (operation.op) {
    case 'memory.save': {
      const memory = services.memory!;
      try {
        const saved = await memory.save(operation.entry, { ifUpdatedAt: operation.expectUpdatedAt });
        return { outcome: 'applied', updatedAt: saved.updatedAt };
      } catch (error) {
        if (!isReverieError(error, 'CONFLICT')) throw error;
        const current = await memory.get(operation.entry.id);
        if (current && sameMemory(current, operation.entry)) return { outcome: 'applied', updatedAt: current.updatedAt };
        return { outcome: 'conflict' };
      }
    }
    case 'memory.delete': {
      try {
        const deleted = await services.memory!.delete(operation.id, { ifUpdatedAt: operation.expectUpdatedAt });
        return { outcome: deleted ? 'applied' : 'noop' };
      } catch (error) {
        if (!isReverieError(error, 'CONFLICT')) throw error;
        return (await services.memory!.get(operation.id)) ? { outcome: 'conflict' } : { outcome: 'noop' };
      }
    }
    case 'skill.save': {
      const skills = services.skills!;
      try {
        const saved = await skills.save(operation.skill, { ifUpdatedAt: operation.expectUpdatedAt });
        return { outcome: 'applied', updatedAt: saved.updatedAt };
      } catch (error) {
        if (!isReverieError(error, 'CONFLICT')) throw error;
        const current = await skills.get(operation.skill.name);
        if (current && sameSkill(current, operation.skill)) return { outcome: 'applied', updatedAt: current.updatedAt };
        return { outcome: 'conflict' };
      }
    }
    case 'skill.delete': {
      try {
        const deleted = await services.skills!.delete(operation.name, { ifUpdatedAt: operation.expectUpdatedAt });
        return { outcome: deleted ? 'applied' : 'noop' };
      } catch (error) {
        if (!isReverieError(error, 'CONFLICT')) throw error;
        return (await services.skills!.get(operation.name)) ? { outcome: 'conflict' } : { outcome: 'noop' };
      }
    }
    case 'conversation-log.clear': {
      if (checks.conversationLogHorizon && operation.throughSeq > (await checks.conversationLogHorizon())) return { outcome: 'conflict' };
      const removed = await services.conversationLog!.clear({ throughSeq: operation.throughSeq });
      return { outcome: removed > 0 ? 'applied' : 'noop' };
    }
  }
}

/**
 * Applies a pass's operations from `fromIndex` on, journalling each one as soon as it is done
 * (through one open file) and fsyncing the journal once at the end. Returns how many were applied, how many were skipped
 * as conflicts, and their records.
 *
 * `resumed` says operations from `fromIndex` on may already have been applied by a run that
 * crashed before journalling them (recovery; after a power cut, several journal lines may be
 * missing). A save recognises that by itself; a delete only finds the record gone, so when the
 * archive holds the record's pre-image for this pass (it existed, unchanged, when the run
 * archived it), the delete is counted as applied: otherwise undo would never restore what the
 * crashed run deleted.
 *
 * `lost` is the dream lock's (see `DreamLockHandle.lost`): once it is aborted, this stops before
 * the next operation or journal line with its LOCK_LOST reason, as a crash would stop there.
 */
export async function applyJournalled(
  folder: DreamRun,
  pass: string,
  operations: readonly DreamOperation[],
  services: DreamServices,
  fromIndex = 0,
  options: { resumed?: boolean; checks?: ApplyChecks; lost?: AbortSignal | undefined } = {},
): Promise<{ applied: number; conflicts: number; conflicted: string[] }> {
  let applied = 0;
  let conflicts = 0;
  const conflicted: string[] = [];
  const journal = await folder.openJournal();
  try {
    for (let index = fromIndex; index < operations.length; index++) {
      const operation = operations[index]!;
      faultPoint('operation-before');
      assertStillHeld(options.lost);
      let result = await applyOperation(operation, services, options.checks);
      if (options.resumed && result.outcome === 'noop' && (await deletedBeforeCrash(folder, pass, operation))) {
        result = { outcome: 'applied' };
      }
      faultPoint('operation-after');
      assertStillHeld(options.lost);
      await journal.append({ pass, index, ...result });
      faultPoint('journal-written');
      if (result.outcome === 'applied') applied++;
      if (result.outcome === 'conflict') {
        conflicts++;
        conflicted.push(operationTarget(operation));
      }
    }
  } finally {
    await journal.close();
  }
  return { applied, conflicts, conflicted };
}

/** Whether a delete that found nothing to delete was applied by the crashed run (see applyJournalled). */
async function deletedBeforeCrash(folder: DreamRun, pass: string, operation: DreamOperation): Promise<boolean> {
  if (operation.op === 'memory.delete') return (await folder.readArchive(pass, 'memory', operation.id)) !== undefined;
  if (operation.op === 'skill.delete') return (await folder.readArchive(pass, 'skill', operation.name)) !== undefined;
  return false;
}
