import { isReverieError } from '@reverie/core';
import type { ErrorRedactor } from './error-redactor';

/** The body of every error answer: `{ error: { code, message, details? } }`, never a stack trace. */
export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

/** How a server answers failures: what it may tell the caller, and where the rest goes. */
export interface ErrorPolicy {
  /** The server's log (`onError`; default stderr): every 5xx, and every error whose answer left something out. */
  report(error: unknown): void;
  redactor: ErrorRedactor;
}

const CONFLICT_CODES = new Set(['LOCK_HELD', 'CONFLICT', 'PLAN_APPLIED', 'PLAN_EXPIRED', 'DREAM_BLOCKED']);

/** The HTTP status for a ReverieError code. Pure. */
export function statusForCode(code: string): number {
  if (code.startsWith('INVALID_') || code.startsWith('UNKNOWN_') || code === 'NAMESPACE_VIOLATION') return 400;
  if (code === 'UNAUTHORIZED') return 401;
  if (code === 'READ_ONLY' || code === 'ORIGIN_NOT_ALLOWED') return 403;
  if (code === 'NOT_FOUND' || code.endsWith('_NOT_FOUND')) return 404;
  if (code === 'METHOD_NOT_ALLOWED') return 405;
  if (code === 'REQUEST_TIMEOUT') return 408;
  if (CONFLICT_CODES.has(code)) return 409;
  if (code === 'PAYLOAD_TOO_LARGE') return 413;
  if (code === 'DATABASE_UNAVAILABLE' || code === 'MODEL_UNAVAILABLE' || code === 'STORE_CLOSED' || code === 'TOO_MANY_SESSIONS')
    return 503;
  return 500;
}

/**
 * The status and body for anything a handler threw. A ReverieError says its code and message
 * (written for people, with no stack), without absolute paths, process ids or host names
 * (`ErrorRedactor`); anything else is INTERNAL with a fixed message. The log is told every 5xx
 * and every error whose answer left something out, in full, so the operator can see why.
 */
export function describeError(error: unknown, { report, redactor }: ErrorPolicy): { status: number; body: ErrorBody } {
  if (!isReverieError(error)) {
    report(error);
    return { status: 500, body: { error: { code: 'INTERNAL', message: 'The server failed to answer this request; its log says why.' } } };
  }
  const status = statusForCode(error.code);
  const { message, details, changed } = redactor.error(error.message, error.details);
  if (status >= 500 || changed) report(error);
  return { status, body: { error: { code: error.code, message, ...(Object.keys(details).length > 0 ? { details } : {}) } } };
}
