import { SqlParams, underPrefixSql } from '../sql/sql-params';

/** The filters of a memory query that the SQL applies. */
export interface MemoryFilters {
  category?: string | undefined;
  tags?: readonly string[] | undefined;
}

/**
 * The SQL condition for a memory query's filters on the entries of table alias `alias`: the
 * category or below it, and every tag. `TRUE` without filters.
 */
export function memoryFilterSql(params: SqlParams, filters: MemoryFilters, alias = 'm'): string {
  const conditions: string[] = [];
  if (filters.category !== undefined) conditions.push(underPrefixSql(params, `${alias}.category`, filters.category));
  if (filters.tags !== undefined && filters.tags.length > 0) conditions.push(`${alias}.tags @> ${params.add(filters.tags)}::text[]`);
  return conditions.length === 0 ? 'TRUE' : conditions.join(' AND ');
}
