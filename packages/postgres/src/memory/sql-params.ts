/** Collects a statement's parameters and names them `$1`, `$2`… in the order they are added. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The SQL condition for a memory query's filters on table alias `m`: the category or below it,
 * and every tag. `TRUE` without filters.
 */
export function memoryFilterSql(params: SqlParams, filters: { category?: string | undefined; tags?: readonly string[] | undefined }): string {
  const conditions: string[] = [];
  if (filters.category !== undefined) {
    const category = params.add(filters.category);
    conditions.push(`(m.category = ${category} OR starts_with(m.category, ${category} || '/'))`);
  }
  if (filters.tags !== undefined && filters.tags.length > 0) conditions.push(`m.tags @> ${params.add(filters.tags)}::text[]`);
  return conditions.length === 0 ? 'TRUE' : conditions.join(' AND ');
}
