import { createRequire } from 'node:module';
import { ReverieError } from '@reverie/core';
import type { TelemetryOptions } from './telemetry-options';

/** The attribute values a span takes. */
export type SpanAttributes = Record<string, string | number | boolean | string[] | undefined>;

/** The part of an OpenTelemetry span Reverie writes to. */
export interface SpanLike {
  setAttributes(attributes: Record<string, string | number | boolean | string[]>): unknown;
  recordException(exception: Error | string): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** The part of an OpenTelemetry tracer Reverie uses. */
interface TracerLike {
  startActiveSpan<T>(name: string, options: { attributes?: Record<string, unknown> }, fn: (span: SpanLike) => T): T;
}

/** OpenTelemetry's `SpanStatusCode.ERROR`. */
const ERROR_STATUS = 2;

/** `require` from this package in both builds (tsup.config.ts reads `import.meta.url` as `__filename` in the CJS one). */
const requireFromReverie = createRequire(import.meta.url);

/**
 * Reverie's spans (SPEC E3): `span(name, attributes, work)` runs `work` as the active span, so
 * what it calls (a pass's model calls, a store's writes) nests under it, records an error as the
 * span's status, and ends the span. `recordInputs` says whether query texts may go on spans.
 */
export interface ReverieTracing {
  readonly recordInputs: boolean;
  span<T>(name: string, attributes: SpanAttributes, work: (span: SpanLike) => Promise<T>): Promise<T>;
}

/**
 * The tracing of an instance, or undefined when `telemetry` is not given or not enabled: then
 * nothing of OpenTelemetry is loaded. Without a `tracer`, `@opentelemetry/api` (an optional peer
 * dependency) gives the global one; UNSUPPORTED_DEPENDENCY when it is not installed.
 */
export function createTracing(options: TelemetryOptions | undefined): ReverieTracing | undefined {
  if (!options?.isEnabled) return undefined;
  const tracer = (options.tracer as TracerLike | undefined) ?? globalTracer();
  return {
    recordInputs: options.recordInputs === true,
    span: (name, attributes, work) =>
      tracer.startActiveSpan(name, { attributes: defined(attributes) }, async (span) => {
        try {
          return await work(span);
        } catch (error) {
          span.recordException(error instanceof Error ? error : String(error));
          span.setStatus({ code: ERROR_STATUS, message: error instanceof Error ? error.message : String(error) });
          throw error;
        } finally {
          span.end();
        }
      }),
  };
}

function globalTracer(): TracerLike {
  try {
    const api = requireFromReverie('@opentelemetry/api') as { trace: { getTracer(name: string): TracerLike } };
    return api.trace.getTracer('reverie');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw new ReverieError(
      'UNSUPPORTED_DEPENDENCY',
      'createReverie({ telemetry }) emits OpenTelemetry spans and needs the package @opentelemetry/api: install it beside reverie (npm install @opentelemetry/api), pass telemetry.tracer, or leave telemetry out.',
      { cause: error, details: { package: '@opentelemetry/api' } },
    );
  }
}

/** The attributes that have a value (OpenTelemetry refuses undefined ones). */
export function defined(attributes: SpanAttributes): Record<string, string | number | boolean | string[]> {
  return Object.fromEntries(
    Object.entries(attributes).filter((entry): entry is [string, string | number | boolean | string[]] => entry[1] !== undefined),
  );
}
