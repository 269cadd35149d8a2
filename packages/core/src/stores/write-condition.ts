import type { IClock } from '../interfaces/clock';
import { ReverieConflictError, ReverieError } from '../errors/reverie-error';
import type { WriteCondition } from '../interfaces/long-term-memory';
import type { TimeInput } from '../schemas/common';

const ms = (time: TimeInput) => new Date(time).getTime();

/** Throws CONFLICT when a write condition does not hold for the current record (SPEC B3). */
export function checkCondition(what: string, current: { updatedAt: string } | undefined, condition?: WriteCondition): void {
  if (condition?.ifUpdatedAt === undefined) return;
  const expected = condition.ifUpdatedAt;
  if (expected === null && current === undefined) return;
  if (expected !== null && current !== undefined && ms(current.updatedAt) === ms(expected)) return;
  const found = current === undefined ? 'it does not exist' : `it was updated at ${current.updatedAt}`;
  const wanted = expected === null ? 'it not to exist yet' : `updatedAt ${new Date(expected).toISOString()}`;
  throw new ReverieConflictError(`${what} changed since it was read: expected ${wanted}, but ${found}. Read it again and retry.`, {
    details: { expected, actual: current?.updatedAt ?? null },
  });
}

/**
 * The `updatedAt` for a write: now, but strictly later than `previous` (ms resolution), so two
 * writes in the same millisecond still tell apart for optimistic concurrency.
 */
export function nextTimestamp(clock: IClock, previous?: string): string {
  const now = clock.now().getTime();
  const floor = previous === undefined ? -Infinity : ms(previous) + 1;
  return new Date(Math.max(now, floor)).toISOString();
}

/** Guards the methods of a closed store. */
export function assertOpen(closed: boolean, what: string): void {
  if (closed) throw new ReverieError('STORE_CLOSED', `The ${what} is closed: create a new instance to use it again.`);
}

/** True when `iso` lies in [since, until). Missing bounds are open. */
export function inTimeRange(iso: string, since?: TimeInput, until?: TimeInput): boolean {
  const t = ms(iso);
  return (since === undefined || t >= ms(since)) && (until === undefined || t < ms(until));
}
