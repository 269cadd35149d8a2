import type { z } from 'zod';
import { ReverieValidationError } from '../errors/reverie-error';
import { describeIssues } from '../schemas/parse-record';

/** One problem with an option: where it is (`dataPath`, `dreams.intervalMs`; '' for the whole object) and what is wrong. */
export interface OptionIssue {
  path: string;
  message: string;
}

/** The issues of a failed zod parse, as an INVALID_OPTIONS error lists them. */
export function optionIssues(error: z.ZodError): OptionIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/**
 * The INVALID_OPTIONS error, wherever options are checked (SPEC D14): `message` says what to do,
 * and `details.issues` lists each problem as `{ path, message }`, the same shape on every surface.
 */
export function invalidOptions(message: string, issues: readonly OptionIssue[], options: { cause?: unknown } = {}): ReverieValidationError {
  return new ReverieValidationError('INVALID_OPTIONS', message, {
    ...(options.cause === undefined ? {} : { cause: options.cause }),
    details: { issues: issues.map(({ path, message: text }) => ({ path, message: text })) },
  });
}

/**
 * `value` checked against `schema`, defaults filled in; INVALID_OPTIONS "Invalid <what>: …" naming
 * every problem otherwise (`hint`, when given, is appended: what to pass instead).
 */
export function parseOptions<S extends z.ZodType>(schema: S, value: unknown, what: string, hint?: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw invalidOptions(
    `Invalid ${what}: ${describeIssues(parsed.error)}${hint === undefined ? '' : `. ${hint}`}`,
    optionIssues(parsed.error),
  );
}
