import type { MemoryEntry } from '../schemas/memory-entry';
import { parsePartialDate, SUBJECT_POINT_KEY, SUBJECT_START_KEY } from './subject-time';

/** Which rule dated a change (see `changeInstant`). */
export type ChangeRule = 'valid-from' | 'subject-start' | 'subject-point' | 'first-noted';

/** The instant a newer fact took over from an older one, and the rule that gave it. */
export interface ChangeInstant {
  at: string;
  rule: ChangeRule;
}

type Dated = Pick<MemoryEntry, 'createdAt' | 'metadata' | 'validFrom'>;

/**
 * SPEC B9: when the newer fact took over, by the host's rules (never the model's), first that
 * applies:
 *
 * 1. `valid-from`: the newer entry already says since when it holds (`validFrom`);
 * 2. `subject-start`: its subject time starts somewhere (`subject.start`): the start of that span;
 * 3. `subject-point`: its subject time is a moment (`subject.point`, "moved on 2025-09-01"): the start of that span;
 * 4. `first-noted`: its first observation, `createdAt`.
 *
 * An unreadable subject-time value is skipped (as everywhere). The instant is never before the
 * older fact's own `validFrom`, so the older entry's interval stays well-formed. Pure.
 */
export function changeInstant(older: Pick<MemoryEntry, 'validFrom'>, newer: Dated): ChangeInstant {
  const start = newer.metadata[SUBJECT_START_KEY] === undefined ? undefined : parsePartialDate(newer.metadata[SUBJECT_START_KEY]);
  const point = newer.metadata[SUBJECT_POINT_KEY] === undefined ? undefined : parsePartialDate(newer.metadata[SUBJECT_POINT_KEY]);
  const found: ChangeInstant =
    newer.validFrom !== undefined
      ? { at: newer.validFrom, rule: 'valid-from' }
      : start !== undefined
        ? { at: new Date(start.start).toISOString(), rule: 'subject-start' }
        : point !== undefined
          ? { at: new Date(point.start).toISOString(), rule: 'subject-point' }
          : { at: newer.createdAt, rule: 'first-noted' };
  if (older.validFrom !== undefined && Date.parse(found.at) < Date.parse(older.validFrom)) return { at: older.validFrom, rule: found.rule };
  return found;
}

/**
 * SPEC B9: the two entries after `newer` superseded `older`: the older one ends where the newer
 * one begins (`validTo` = `validFrom` = `changeInstant`) and names its successor; nothing else
 * changes — content, `lastSeenAt` and importance stay (a supersession is not an observation).
 * `updatedAt` is the store's to stamp. Pure.
 */
export function supersede<T extends MemoryEntry>(older: T, newer: T): { older: T; newer: T; change: ChangeInstant } {
  const change = changeInstant(older, newer);
  return {
    older: { ...older, validTo: change.at, supersededBy: newer.id },
    newer: { ...newer, validFrom: change.at },
    change,
  };
}
