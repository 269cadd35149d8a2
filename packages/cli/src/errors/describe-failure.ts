import { isFileSystemErrorCode } from '@reverie/core/internal';
import { CliError } from './cli-error';
import { EXIT, type ExitCode } from './exit-codes';

/** Node's error codes that mean the data directory cannot be used as it is. */
const DATA_DIR_ERRNOS = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR', 'EEXIST', 'ENOSPC', 'EDQUOT']);
/** Reverie's codes that mean the database (`--postgres`) cannot be used: unreachable, or the role lacks a privilege. */
const DATABASE_CODES = new Set(['DATABASE_UNAVAILABLE', 'PERMISSION_DENIED']);

interface CodedError {
  code?: unknown;
  name?: unknown;
  message?: unknown;
}

/**
 * The exit code and the one-line message for anything a command threw. ReverieErrors are
 * recognised by their `code` (not `instanceof`, which two copies of a package would defeat).
 */
export function describeFailure(error: unknown): { exitCode: ExitCode; message: string } {
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message };
  const coded = (typeof error === 'object' && error !== null ? error : {}) as CodedError;
  const code = typeof coded.code === 'string' ? coded.code : undefined;
  const message = oneLine(typeof coded.message === 'string' && coded.message ? coded.message : String(error));
  if (code === undefined) return { exitCode: EXIT.FAILED, message };
  if (code.startsWith('INVALID_') || code.startsWith('UNKNOWN_')) return { exitCode: EXIT.USAGE, message };
  if (code === 'NOT_FOUND' || code.endsWith('_NOT_FOUND')) return { exitCode: EXIT.NOT_FOUND, message };
  if (code === 'LOCK_HELD') return { exitCode: EXIT.LOCK_HELD, message };
  if (isFileSystemErrorCode(code) || DATA_DIR_ERRNOS.has(code) || DATABASE_CODES.has(code)) return { exitCode: EXIT.DATA_DIR, message };
  return { exitCode: EXIT.FAILED, message };
}

/** Messages go on one line: the first line, whitespace collapsed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
