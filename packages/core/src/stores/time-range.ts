import { ReverieValidationError } from '../errors/reverie-error';
import { timestampSchema } from '../schemas/common';

/** Throws INVALID_INPUT when `since`/`until` are present but not ISO timestamps. */
export function validateRange(options: { since?: string; until?: string }): void {
  for (const field of ['since', 'until'] as const) {
    const value = options[field];
    if (value !== undefined && !timestampSchema.safeParse(value).success) {
      throw new ReverieValidationError(
        'INVALID_INPUT',
        `Invalid ${field} ${JSON.stringify(value)}: pass an ISO timestamp such as "2026-11-21T09:00:00.000Z".`,
        { details: { field, value } },
      );
    }
  }
}

/** Oldest first; stable for equal timestamps. */
export function byTimestamp(a: { timestamp: string }, b: { timestamp: string }): number {
  return new Date(a.timestamp).getTime() - new Date(b.timestamp).getTime();
}
