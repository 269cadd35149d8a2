import { ReverieValidationError } from '../errors/reverie-error';
import { type TimeInput, timestampSchema } from '../schemas/common';

/** Throws INVALID_INPUT when `since`/`until` are present but neither valid Dates nor ISO timestamps. */
export function validateRange(options: { since?: TimeInput; until?: TimeInput }): void {
  for (const field of ['since', 'until'] as const) {
    const value = options[field];
    if (value !== undefined && !timestampSchema.safeParse(value).success) {
      throw new ReverieValidationError(
        'INVALID_INPUT',
        `Invalid ${field} ${value instanceof Date ? 'Date (Invalid Date)' : JSON.stringify(value)}: pass a valid Date or an ISO timestamp such as "2026-11-21T09:00:00.000Z".`,
        { details: { field, value } },
      );
    }
  }
}

/** Oldest first; stable for equal timestamps. */
export function byTimestamp(a: { timestamp: string }, b: { timestamp: string }): number {
  return new Date(a.timestamp).getTime() - new Date(b.timestamp).getTime();
}
