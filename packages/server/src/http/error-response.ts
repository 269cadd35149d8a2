import { isReverieError } from '@reverie/core';

/** The body of every error answer: `{ error: { code, message, details? } }`, never a stack trace. */
export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

const CONFLICT_CODES = new Set(['LOCK_HELD', 'CONFLICT', 'PLAN_APPLIED', 'PLAN_EXPIRED', 'DREAM_BLOCKED']);

/** The HTTP status for a ReverieError code. Pure. */
export function statusForCode(code: string): number {
  if (code.startsWith('INVALID_') || code.startsWith('UNKNOWN_') || code === 'NAMESPACE_VIOLATION') return 400;
  if (code === 'UNAUTHORIZED') return 401;
  if (code === 'READ_ONLY' || code === 'ORIGIN_NOT_ALLOWED') return 403;
  if (code === 'NOT_FOUND' || code.endsWith('_NOT_FOUND')) return 404;
  if (code === 'METHOD_NOT_ALLOWED') return 405;
  if (CONFLICT_CODES.has(code)) return 409;
  if (code === 'REQUEST_TIMEOUT') return 408;
  if (code === 'PAYLOAD_TOO_LARGE') return 413;
  if (code === 'DATABASE_UNAVAILABLE' || code === 'MODEL_UNAVAILABLE' || code === 'STORE_CLOSED' || code === 'TOO_MANY_SESSIONS') return 503;
  return 500;
}

/**
 * The status and body for anything a handler threw. A ReverieError says its code and message
 * (written for people, with no stack); anything else is INTERNAL with a fixed message, and
 * `report` is told the error so the operator can see it in the log.
 */
export function describeError(error: unknown, report: (error: unknown) => void): { status: number; body: ErrorBody } {
  if (isReverieError(error)) {
    const details = Object.keys(error.details).length > 0 ? { details: error.details } : {};
    return { status: statusForCode(error.code), body: { error: { code: error.code, message: error.message, ...details } } };
  }
  report(error);
  return { status: 500, body: { error: { code: 'INTERNAL', message: 'The server failed to answer this request; its log says why.' } } };
}
