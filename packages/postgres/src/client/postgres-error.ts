import { ReverieConflictError, ReverieError } from '@reverie/core';

/** SQLSTATE classes and codes that mean the server cannot be reached or will not let us in. */
const UNAVAILABLE_SQLSTATES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '28000',
  '28P01',
  '3D000',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
/** Node's network errors for a server that is not there. */
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOENT',
]);
/** Concurrent transactions got in each other's way: retrying the operation is the cure. */
const RETRY_SQLSTATES = new Set(['40001', '40P01']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(messageOf).join('; ');
  return error instanceof Error ? error.message : String(error);
}

/**
 * Turns what the driver threw into a `ReverieError` whose code says what to do:
 * `DATABASE_UNAVAILABLE` when the server cannot be reached, refuses the login or has no such
 * database; `CONFLICT` for a unique violation (the record already exists) and for a
 * serialization failure or deadlock (retry); `PERMISSION_DENIED` when the role lacks a
 * privilege; `DATABASE_ERROR` for the rest, with the SQLSTATE. A ReverieError passes through. Pure.
 */
export function postgresError(error: unknown, action: string): ReverieError {
  if (error instanceof ReverieError) return error;
  const code = codeOf(error) ?? codeOf((error as { errors?: unknown[] } | null)?.errors?.[0]);
  const reason = messageOf(error);
  const details = code === undefined ? { action } : { action, code };
  if (code !== undefined && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) {
    return new ReverieError(
      'DATABASE_UNAVAILABLE',
      `Could not ${action}: the PostgreSQL server is unreachable or refused the connection (${reason}). Check the host, port, database name, user and password of the connection string or pool, and that the server is running and accepts connections from this machine.`,
      { cause: error, details },
    );
  }
  if (code === '23505') {
    return new ReverieConflictError(
      `Could not ${action}: a record with the same key already exists (${reason}). Read it again and retry.`,
      { cause: error, details },
    );
  }
  if (code !== undefined && RETRY_SQLSTATES.has(code)) {
    return new ReverieConflictError(`Could not ${action}: a concurrent transaction got in the way (${reason}). Retry the operation.`, {
      cause: error,
      details,
    });
  }
  if (code === '42501') {
    return new ReverieError(
      'PERMISSION_DENIED',
      `Could not ${action}: the database role lacks a privilege (${reason}). Grant it CREATE on the schema (for migrations) and SELECT, INSERT, UPDATE, DELETE on Reverie's tables, or run migratePostgres() once as a role that may.`,
      { cause: error, details },
    );
  }
  return new ReverieError('DATABASE_ERROR', `Could not ${action}: PostgreSQL answered ${code === undefined ? '' : `${code} `}${reason}.`, {
    cause: error,
    details,
  });
}
