import { ReverieStoreCorruptError } from '@reverie/core';
import type { z } from 'zod';

/** A `timestamptz` as the driver returns it (a Date; a string from some drivers), as an ISO string in UTC. Pure. */
export function isoFromRow(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** A timestamp as PostgreSQL gives it back: the same instant, in UTC, to the millisecond. Pure. */
export function normaliseTime(value: string): string {
  return new Date(value).toISOString();
}

/**
 * A record read from a row, checked by `schema`: STORE_CORRUPT naming the table, scope and key
 * when a row was changed outside Reverie into something that is not a valid record.
 */
export function recordFromRow<S extends z.ZodType>(
  schema: S,
  record: unknown,
  where: { table: string; scope: string; key: string },
): z.output<S> {
  const parsed = schema.safeParse(record);
  if (parsed.success) return parsed.data;
  throw new ReverieStoreCorruptError(
    `The row ${where.key} of scope ${where.scope} in ${where.table} is not a valid record (${parsed.error.issues[0]?.message}): repair or delete that row.`,
    { cause: parsed.error, details: { ...where } },
  );
}
