import { z } from 'zod';

/** Does `value` look like an OpenTelemetry `Tracer` (what `trace.getTracer(name)` returns)? */
const isTracer = (value: unknown) =>
  typeof value === 'object' && value !== null && typeof (value as { startActiveSpan?: unknown }).startActiveSpan === 'function';

/**
 * SPEC E3: `createReverie({ telemetry })`, the AI SDK's telemetry settings (`experimental_telemetry`
 * of `generateText`). Reverie passes them on to every model call it makes (the dream passes, fact
 * extraction), and with `isEnabled` (default true once given) emits spans of its own for recall,
 * saves, deletes and dream runs through `tracer` (default: `@opentelemetry/api`'s global tracer
 * provider, which must then be installed). The query text goes on Reverie's spans only with
 * `recordInputs: true`; the AI SDK records its inputs unless `recordInputs: false`.
 */
export const telemetryOptionsSchema = z
  .object({
    isEnabled: z.boolean().default(true),
    recordInputs: z.boolean().optional(),
    recordOutputs: z.boolean().optional(),
    functionId: z.string().min(1).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    tracer: z.custom<object>(isTracer, { message: 'must be an OpenTelemetry Tracer (trace.getTracer(name))' }).optional(),
    integrations: z.unknown().optional(),
  })
  .strict();
export type TelemetryOptions = z.output<typeof telemetryOptionsSchema>;
export type TelemetryOptionsInput = z.input<typeof telemetryOptionsSchema>;
