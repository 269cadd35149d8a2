import { ReverieError, ReverieValidationError } from '@reverie/core';
import type { z } from 'zod';
import type { Operation, OperationContext } from './operation';
import { strictInput } from './strict-input';

/**
 * Runs one operation the way both surfaces do: a writing operation on a read-only server is
 * refused (READ_ONLY) before anything is read, and the input is validated (INVALID_INPUT naming
 * each bad field, and each field the operation does not take) before `run` sees it, so bad input
 * writes nothing.
 */
export async function runOperation(operation: Operation, input: unknown, context: OperationContext, readOnly: boolean): Promise<unknown> {
  if (readOnly && operation.access === 'write') {
    throw new ReverieError(
      'READ_ONLY',
      `${operation.name} writes, and this server was started read-only (--read-only): restart it without --read-only to allow writes.`,
    );
  }
  const schema = strictInput(operation);
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.flatMap((issue) => describeIssue(issue, schema));
    throw new ReverieValidationError(
      'INVALID_INPUT',
      `Invalid input for ${operation.name}: ${issues.map(({ path, message }) => `${path || 'input'}: ${message}`).join('; ')}.`,
      {
        details: { issues },
      },
    );
  }
  return operation.run(parsed.data, context);
}

/** One issue per bad field; a field the operation does not take is named, with the fields it does. */
function describeIssue(issue: z.core.$ZodIssue, schema: z.ZodObject): Array<{ path: string; message: string }> {
  const at = issue.path.join('.');
  if (issue.code !== 'unrecognized_keys') return [{ path: at, message: issue.message }];
  const known = Object.keys(schema.shape);
  const takes = known.length === 0 ? 'it takes no fields' : `it takes ${known.join(', ')}`;
  return issue.keys.map((key) => ({ path: at === '' ? key : `${at}.${key}`, message: `unknown field (${takes})` }));
}
