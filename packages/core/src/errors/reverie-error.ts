/**
 * Every error Reverie throws on purpose. The `code` is stable and meant for programs; the
 * message is meant for people and says what to do about it.
 */
export type ReverieErrorCode =
  | 'INVALID_CATEGORY'
  | 'INVALID_NAME'
  | 'INVALID_KEY'
  | 'INVALID_SCOPE'
  | 'INVALID_ID'
  | 'INVALID_INPUT'
  | 'INVALID_OPTIONS'
  | 'NOT_FOUND'
  | 'RUN_NOT_FOUND'
  | 'PLAN_NOT_FOUND'
  | 'PLAN_APPLIED'
  | 'PLAN_EXPIRED'
  | 'UNKNOWN_PASS'
  | 'UNKNOWN_PHASE'
  | 'UNKNOWN_TOOL'
  | 'CONFLICT'
  | 'NAMESPACE_VIOLATION'
  | 'STORE_CORRUPT'
  | 'STORE_CLOSED'
  | 'LOCK_HELD'
  | 'LOCK_LOST'
  | 'MODEL_REPLY_INVALID'
  | 'MODEL_UNAVAILABLE'
  | 'ABORTED'
  | 'READ_ONLY'
  | 'PERMISSION_DENIED'
  | 'NO_SPACE'
  | 'NOT_A_DIRECTORY'
  | 'IS_A_DIRECTORY'
  | 'IO_ERROR'
  | 'DATABASE_UNAVAILABLE'
  | 'DATABASE_ERROR'
  | 'SCHEMA_TOO_NEW'
  | 'UNAUTHORIZED'
  | 'ORIGIN_NOT_ALLOWED'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'REQUEST_TIMEOUT'
  | 'TOO_MANY_SESSIONS'
  | 'DREAM_BLOCKED'
  | 'UNSUPPORTED_DEPENDENCY'
  | 'INTERNAL';

export interface ReverieErrorOptions {
  cause?: unknown;
  /** Structured facts about the failure (the offending value, the field, the path…). */
  details?: Record<string, unknown>;
}

/**
 * Marks every ReverieError, in the global symbol registry: a process can hold two copies of this
 * package (the ESM build, and the CommonJS build that `@reverie/postgres` is loaded through), and
 * an error of one must be recognised by the other.
 */
const REVERIE_ERROR = Symbol.for('reverie.ReverieError');

export class ReverieError extends Error {
  readonly code: ReverieErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ReverieErrorCode, message: string, options: ReverieErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ReverieError';
    this.code = code;
    this.details = options.details ?? {};
    Object.defineProperty(this, REVERIE_ERROR, { value: true });
  }

  /** `error instanceof ReverieError` holds for a ReverieError of any copy of this package; subclasses check as usual. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== ReverieError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[REVERIE_ERROR] === true;
  }
}

/** Bad input from a caller: a name, key, id, record or option that cannot be accepted. */
export class ReverieValidationError extends ReverieError {
  constructor(
    code: Extract<
      ReverieErrorCode,
      | 'INVALID_CATEGORY'
      | 'INVALID_NAME'
      | 'INVALID_KEY'
      | 'INVALID_SCOPE'
      | 'INVALID_ID'
      | 'INVALID_INPUT'
      | 'INVALID_OPTIONS'
      | 'UNKNOWN_PASS'
      | 'UNKNOWN_PHASE'
      | 'UNKNOWN_TOOL'
    >,
    message: string,
    options?: ReverieErrorOptions,
  ) {
    super(code, message, options);
    this.name = 'ReverieValidationError';
  }
}

/** A write lost an optimistic-concurrency check: the record changed since the caller read it. */
export class ReverieConflictError extends ReverieError {
  constructor(message: string, options?: ReverieErrorOptions) {
    super('CONFLICT', message, options);
    this.name = 'ReverieConflictError';
  }
}

/** Stored data could not be read back as a valid record. */
export class ReverieStoreCorruptError extends ReverieError {
  constructor(message: string, options?: ReverieErrorOptions) {
    super('STORE_CORRUPT', message, options);
    this.name = 'ReverieStoreCorruptError';
  }
}

/** Another runner holds a lock this operation needs. */
export class ReverieLockHeldError extends ReverieError {
  constructor(message: string, options?: ReverieErrorOptions) {
    super('LOCK_HELD', message, options);
    this.name = 'ReverieLockHeldError';
  }
}

/** A model's reply could not be turned into a valid plan. */
export class ReverieModelReplyError extends ReverieError {
  constructor(message: string, options?: ReverieErrorOptions) {
    super('MODEL_REPLY_INVALID', message, options);
    this.name = 'ReverieModelReplyError';
  }
}

/** True when `error` is a ReverieError (optionally with the given code). */
export function isReverieError(error: unknown, code?: ReverieErrorCode): error is ReverieError {
  return error instanceof ReverieError && (code === undefined || error.code === code);
}
