import type { IConversationLog, LoggedTurn } from '@reverie/core';
import type { PassPlan } from '../../engine/dream-types';

/** SPEC D17: a turn carrying this hint is audit-only: it is never sent to the model. */
const SKIP_HINT = /\[skip\]/i;
/** Roles whose turns tell what happened; system prompts and tool output are not sent. */
const SENT_ROLES: ReadonlySet<string> = new Set(['user', 'assistant']);

export interface TurnSelection {
  /** The turns that go to the model, in log order. */
  sent: LoggedTurn[];
  /** Turns marked `[skip]`. */
  skipped: number;
  /** System and tool turns. */
  otherRoles: number;
}

/**
 * What one run of a log-reading pass read of the conversation log: the turns after its cursor,
 * oldest first, at most `maxTurnsPerRun`, and the notes every such pass reports about them.
 */
export interface LogWindow {
  /** The cursor's position: the turns up to it were read by an earlier, applied run. */
  afterSeq: number;
  /** The turns read, in log order. */
  read: LoggedTurn[];
  /** The last seq read (`afterSeq` when nothing was): where the cursor moves once the run is applied. */
  throughSeq: number;
  /** The turns read split into those the model sees and those it does not. */
  selection: TurnSelection;
  /** What was read and left out, or that nothing was new; the pass appends its own. */
  notes: string[];
}

/** Splits the turns read into those the model sees and those it does not (still processed). Pure. */
export function selectTurns(turns: readonly LoggedTurn[]): TurnSelection {
  const sent: LoggedTurn[] = [];
  let skipped = 0;
  let otherRoles = 0;
  for (const turn of turns) {
    if (SKIP_HINT.test(turn.content)) skipped++;
    else if (!SENT_ROLES.has(turn.role) || turn.content.trim() === '') otherRoles++;
    else sent.push(turn);
  }
  return { sent, skipped, otherRoles };
}

/** The window a run read: `read` are the turns after `afterSeq`, at most `maxTurnsPerRun`. Pure. */
export function logWindow(afterSeq: number, read: LoggedTurn[], maxTurnsPerRun: number): LogWindow {
  const throughSeq = Math.max(afterSeq, ...read.map((turn) => turn.seq));
  const selection = selectTurns(read);
  if (read.length === 0) return { afterSeq, read, throughSeq, selection, notes: [`no new turns after seq ${afterSeq}`] };
  const sessionCount = new Set(read.map((turn) => turn.sessionId)).size;
  const notes = [`${read.length} turn(s) read (seq ${read[0]!.seq}..${throughSeq}) from ${sessionCount} session(s)`];
  if (selection.skipped > 0) notes.push(`${selection.skipped} turn(s) marked [skip] not sent`);
  if (selection.otherRoles > 0) notes.push(`${selection.otherRoles} system, tool or empty turn(s) not sent`);
  if (read.length === maxTurnsPerRun)
    notes.push(`maxTurnsPerRun (${maxTurnsPerRun}) reached: the next run continues after seq ${throughSeq}`);
  return { afterSeq, read, throughSeq, selection, notes };
}

/** Reads the turns after `afterSeq`, oldest first, at most `maxTurnsPerRun`. */
export async function readLogWindow(log: IConversationLog, afterSeq: number, maxTurnsPerRun: number): Promise<LogWindow> {
  return logWindow(afterSeq, await log.read({ afterSeq, limit: maxTurnsPerRun }), maxTurnsPerRun);
}

/** The plan of a run that found no new turn: nothing to do, and no cursor to move. */
export function nothingNew(window: LogWindow): PassPlan {
  return { operations: [], itemsProcessed: 0, notes: window.notes, refusals: [] };
}

/** The plan of a run that read turns but has nothing to ask the model about them: the cursor still moves past them. */
export function nothingToAsk(window: LogWindow, reason: string, commit: unknown): PassPlan {
  return { operations: [], itemsProcessed: window.read.length, notes: [...window.notes, reason], refusals: [], commit };
}
