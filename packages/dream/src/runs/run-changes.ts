import { type MemoryEntry, memoryEntrySchema, type Skill, skillSchema } from '@reverie/core';
import type { DreamOperation, DreamRun, DreamRunStore, JournalLine, RunManifest } from '@reverie/dream-state';

/**
 * One record one run touched, as its records tell it (SPEC O7, O8): the plan says what the
 * operation was and why, the journal whether it was applied, the archive what the record was
 * before. `before` and `after` are the whole record (a memory entry or a skill); a cleared
 * conversation log has neither (its turns stay in the archive, for undo).
 */
export interface RecordChange {
  runId: string;
  pass: string;
  /** The operation's position in the pass's plan. */
  index: number;
  kind: 'memory' | 'skill' | 'conversation-log';
  /** The memory entry's id, the skill's name, or `through-<seq>` for a log clear. */
  key: string;
  /** created: there was no record before; changed: replaced; deleted: removed; cleared: log turns removed. */
  action: 'created' | 'changed' | 'deleted' | 'cleared';
  /** From the journal: applied, conflict (the record changed since it was read: left alone) or noop. */
  outcome: JournalLine['outcome'];
  /** The plan's reason ("consolidation: merged 1a…, 2b…", "consolidation: replaced by 3c…"). */
  reason: string;
  /** The record as it was before the run (from the archive). */
  before?: MemoryEntry | Skill;
  /** The record as the run wrote it (with the `updatedAt` the store stamped). */
  after?: MemoryEntry | Skill;
}

/** A change with the run it belongs to, as a record's history lists it. */
export interface RecordHistoryItem extends RecordChange {
  runStatus: RunManifest['status'];
  trigger: string;
  startedAt: string;
  undoneAt?: string;
}

/** One record: a memory entry by id, a skill by name. */
export interface RecordKey {
  kind: RecordChange['kind'];
  key: string;
}

/**
 * What one run changed, in the order it applied it: one item per journal line (an operation
 * planned and never reached — a run cut short — is not a change), only those of `only` when
 * given. Reads the run's plans, journal and archive; writes nothing.
 */
export async function readRunChanges(run: DreamRun, only?: RecordKey): Promise<RecordChange[]> {
  const journal = await run.readJournal();
  const plans = new Map<string, DreamOperation[]>();
  for (const pass of run.state.passes) plans.set(pass, (await run.readPlan(pass)).operations);
  const changes: RecordChange[] = [];
  for (const line of journal) {
    const operation = plans.get(line.pass)?.[line.index];
    if (operation === undefined || (only !== undefined && !touches(operation, only))) continue;
    changes.push(await describeChange(run, line, operation));
  }
  return changes;
}

/** Whether `operation` writes the record `only` names. Pure. */
function touches(operation: DreamOperation, { kind, key }: RecordKey): boolean {
  switch (operation.op) {
    case 'memory.save':
      return kind === 'memory' && operation.entry.id === key;
    case 'memory.delete':
      return kind === 'memory' && operation.id === key;
    case 'skill.save':
      return kind === 'skill' && operation.skill.name === key;
    case 'skill.delete':
      return kind === 'skill' && operation.name === key;
    case 'conversation-log.clear':
      return kind === 'conversation-log' && `through-${operation.throughSeq}` === key;
  }
}

async function describeChange(run: DreamRun, line: JournalLine, operation: DreamOperation): Promise<RecordChange> {
  const base = { runId: run.runId, pass: line.pass, index: line.index, outcome: line.outcome, reason: operation.reason };
  switch (operation.op) {
    case 'memory.save': {
      const before = parsed(memoryEntrySchema, await run.readArchive(line.pass, 'memory', operation.entry.id));
      const after = { ...operation.entry, updatedAt: line.updatedAt ?? operation.entry.updatedAt };
      return {
        ...base,
        kind: 'memory',
        key: operation.entry.id,
        action: before ? 'changed' : 'created',
        ...(before ? { before } : {}),
        after,
      };
    }
    case 'memory.delete': {
      const before = parsed(memoryEntrySchema, await run.readArchive(line.pass, 'memory', operation.id));
      return { ...base, kind: 'memory', key: operation.id, action: 'deleted', ...(before ? { before } : {}) };
    }
    case 'skill.save': {
      const before = parsed(skillSchema, await run.readArchive(line.pass, 'skill', operation.skill.name));
      const after = { ...operation.skill, updatedAt: line.updatedAt ?? operation.skill.updatedAt };
      return {
        ...base,
        kind: 'skill',
        key: operation.skill.name,
        action: before ? 'changed' : 'created',
        ...(before ? { before } : {}),
        after,
      };
    }
    case 'skill.delete': {
      const before = parsed(skillSchema, await run.readArchive(line.pass, 'skill', operation.name));
      return { ...base, kind: 'skill', key: operation.name, action: 'deleted', ...(before ? { before } : {}) };
    }
    case 'conversation-log.clear':
      return { ...base, kind: 'conversation-log', key: `through-${operation.throughSeq}`, action: 'cleared' };
  }
}

/** An archived record as its schema reads it; undefined when there is none (or it no longer reads). */
function parsed<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, record: unknown): T | undefined {
  if (record === undefined) return undefined;
  const result = schema.safeParse(record);
  return result.success ? result.data : undefined;
}

/**
 * Every change the runs made to one record (a memory entry by id, a skill by name), oldest run
 * first: which run created, merged, changed or deleted it, and whether that run was undone
 * since. Reads every run's records (one pass over the runs; an inspector's question, not a
 * turn's).
 */
export async function readRecordHistory(runs: DreamRunStore, record: RecordKey): Promise<RecordHistoryItem[]> {
  const listings = (await runs.list()).sort(
    (a, b) => Date.parse(a.manifest.startedAt) - Date.parse(b.manifest.startedAt) || a.manifest.runId.localeCompare(b.manifest.runId),
  );
  const history: RecordHistoryItem[] = [];
  for (const { manifest } of listings) {
    const run = await runs.open(manifest.runId);
    if (run === undefined) continue;
    for (const change of await readRunChanges(run, record)) {
      history.push({
        ...change,
        runStatus: manifest.status,
        trigger: manifest.trigger,
        startedAt: manifest.startedAt,
        ...(manifest.undoneAt === undefined ? {} : { undoneAt: manifest.undoneAt }),
      });
    }
  }
  return history;
}
