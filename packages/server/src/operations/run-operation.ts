import { ReverieError, ReverieValidationError } from '@reverie/core';
import type { Operation, OperationContext } from './operation';

/**
 * Runs one operation the way both surfaces do: a writing operation on a read-only server is
 * refused (READ_ONLY) before anything is read, and the input is validated (INVALID_INPUT naming
 * each bad field) before `run` sees it, so bad input writes nothing.
 */
export async function runOperation(operation: Operation, input: unknown, context: OperationContext, readOnly: boolean): Promise<unknown> {
  if (readOnly && operation.access === 'write') {
    throw new ReverieError(
      'READ_ONLY',
      `${operation.name} writes, and this server was started read-only (--read-only): restart it without --read-only to allow writes.`,
    );
  }
  const parsed = operation.input.safeParse(input ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`);
    throw new ReverieValidationError('INVALID_INPUT', `Invalid input for ${operation.name}: ${issues.join('; ')}.`, {
      details: { issues: parsed.error.issues.map(({ path, message }) => ({ path: path.join('.'), message })) },
    });
  }
  return operation.run(parsed.data, context);
}
