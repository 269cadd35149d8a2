import { describeIssues, ReverieValidationError } from '@reverie/core';
import type { z } from 'zod';

/** A pass's options, validated with their defaults; bad ones are an `INVALID_OPTIONS` error naming the pass. */
export function parsePassOptions<S extends z.ZodType>(pass: string, schema: S, options: z.input<S>): z.output<S> {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  throw new ReverieValidationError('INVALID_OPTIONS', `Invalid ${pass} options: ${describeIssues(parsed.error)}`, {
    cause: parsed.error,
    details: { issues: parsed.error.issues },
  });
}
