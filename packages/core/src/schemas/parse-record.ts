import { z } from 'zod';
import { ReverieValidationError } from '../errors/reverie-error';

/**
 * Parses `value` with `schema` at a boundary, turning a zod failure into a ReverieError with
 * code INVALID_INPUT whose message lists every problem by field.
 */
export function parseRecord<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ReverieValidationError('INVALID_INPUT', `Invalid ${what}: ${describeIssues(result.error)}`, {
    cause: result.error,
    details: { issues: result.error.issues },
  });
}

/** One line per zod issue, `field.path: message`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
