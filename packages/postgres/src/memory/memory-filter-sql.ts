import type { MemoryTier, ValidityView } from '@reverie/core';
import type { Period } from '@reverie/core/internal';
import { SqlParams, underPrefixSql } from '../sql/sql-params';

/** The filters of a memory query that the SQL applies. */
export interface MemoryFilters {
  category?: string | undefined;
  tags?: readonly string[] | undefined;
  /** SPEC B9: the facts that hold now, or that held at `asOf` (`validityTest` of `@reverie/core`, in SQL). */
  validity?: ValidityView | undefined;
  /** SPEC B13: one tier only. Written as a literal, so that the planner can use the tier's partial indexes. */
  tier?: MemoryTier | undefined;
}

/**
 * The SQL condition for a memory query's filters on the entries of table alias `alias`: the
 * category or below it, every tag, the validity view and the tier. `TRUE` without filters.
 */
export function memoryFilterSql(params: SqlParams, filters: MemoryFilters, alias = 'm'): string {
  const conditions: string[] = [];
  if (filters.category !== undefined) conditions.push(underPrefixSql(params, `${alias}.category`, filters.category));
  if (filters.tags !== undefined && filters.tags.length > 0) conditions.push(`${alias}.tags @> ${params.add(filters.tags)}::text[]`);
  if (filters.validity !== undefined) conditions.push(validitySql(params, filters.validity, alias));
  if (filters.tier !== undefined) conditions.push(`${alias}.tier = '${filters.tier === 'cold' ? 'cold' : 'hot'}'`);
  return conditions.length === 0 ? 'TRUE' : conditions.join(' AND ');
}

/** `holdsNow` (no `asOf`) or `heldAt` (with one) of `@reverie/core` as an SQL condition. */
function validitySql(params: SqlParams, view: ValidityView, alias: string): string {
  if (view.asOf !== undefined) {
    const at = params.add(view.asOf.toISOString());
    return `coalesce(${alias}.valid_from, ${alias}.created_at) <= ${at}::timestamptz AND (${alias}.valid_to IS NULL OR ${alias}.valid_to > ${at}::timestamptz)`;
  }
  const now = params.add(view.now.toISOString());
  return `(${alias}.valid_to IS NULL OR ${alias}.valid_to > ${now}::timestamptz) AND (${alias}.valid_from IS NULL OR ${alias}.valid_from <= ${now}::timestamptz)`;
}

/** `notedWithin` of `@reverie/core` as an SQL condition: the entry's first or last noting lies in one of the periods. */
export function notedWithinSql(params: SqlParams, periods: readonly Period[], alias = 'm'): string {
  if (periods.length === 0) return 'FALSE';
  return periods
    .map((period) => {
      const from = params.add(new Date(period.from).toISOString());
      const to = params.add(new Date(period.to).toISOString());
      const inside = (column: string) => `(${alias}.${column} >= ${from}::timestamptz AND ${alias}.${column} < ${to}::timestamptz)`;
      return `${inside('created_at')} OR ${inside('last_seen_at')}`;
    })
    .join(' OR ');
}
