import { parseOptions } from '@reverie/core';
import type { z } from 'zod';

/** A pass's options, validated with their defaults; bad ones are an `INVALID_OPTIONS` error naming the pass (SPEC D14). */
export function parsePassOptions<S extends z.ZodType>(pass: string, schema: S, options: z.input<S>): z.output<S> {
  return parseOptions(schema, options, `${pass} options`);
}
