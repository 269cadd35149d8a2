import type { TimeInput } from '@reverie/core';

/** Collects a statement's parameters and names them `$1`, `$2`… in the order they are added. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A time a caller passed (already validated), as the ISO string a `timestamptz` parameter takes. Pure. */
export function timeParam(time: TimeInput): string {
  return new Date(time).toISOString();
}

/**
 * The SQL conditions for `[since, until)` on a `timestamptz` column, as `validateRange` checked
 * them: `since` inclusive, `until` exclusive, either open.
 */
export function timeRangeSql(
  params: SqlParams,
  column: string,
  range: { since?: TimeInput | undefined; until?: TimeInput | undefined },
): string[] {
  const conditions: string[] = [];
  if (range.since !== undefined) conditions.push(`${column} >= ${params.add(timeParam(range.since))}::timestamptz`);
  if (range.until !== undefined) conditions.push(`${column} < ${params.add(timeParam(range.until))}::timestamptz`);
  return conditions;
}

/**
 * The SQL condition "`column` equals `prefix` or lies below it" (`a/b` is under `a`, `ab` is
 * not), as `isUnderPrefix` decides it, written as a range so a `COLLATE "C"` btree index serves
 * it: below `a` means from `a/` up to `a0` (`0` follows `/` in code-point order). An empty
 * prefix holds everything.
 */
export function underPrefixSql(params: SqlParams, column: string, prefix: string): string {
  const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (trimmed === '') return 'TRUE';
  return `(${column} = ${params.add(trimmed)} OR (${column} >= ${params.add(`${trimmed}/`)} AND ${column} < ${params.add(`${trimmed}0`)}))`;
}
