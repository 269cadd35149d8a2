import { ReverieError, type ReverieErrorCode } from './reverie-error';

/** The codes a failed file-system call is reported with. */
export const FILE_SYSTEM_ERROR_CODES = [
  'READ_ONLY',
  'PERMISSION_DENIED',
  'NO_SPACE',
  'NOT_A_DIRECTORY',
  'IS_A_DIRECTORY',
  'IO_ERROR',
] as const;

type FileSystemErrorCode = (typeof FILE_SYSTEM_ERROR_CODES)[number];

const ADVICE: Record<FileSystemErrorCode, string> = {
  READ_ONLY: 'The data directory is on a read-only file system: point dataPath at a writable directory or remount it read-write.',
  PERMISSION_DENIED: 'This process may not write there: give its user write access to the data directory or choose another dataPath.',
  NO_SPACE: 'The disk (or quota) is full: free space and retry; nothing acknowledged before this was lost.',
  NOT_A_DIRECTORY: 'A file stands where Reverie needs a folder: move that file away (or choose another dataPath) and retry.',
  IS_A_DIRECTORY: 'A folder stands where Reverie needs a file: move that folder away and retry.',
  IO_ERROR: 'Check the disk, the space left and the permissions of the data directory, then retry.',
};

/** True when `code` is one of the file-system codes (READ_ONLY, NO_SPACE, …). */
export function isFileSystemErrorCode(code: string): code is FileSystemErrorCode {
  return (FILE_SYSTEM_ERROR_CODES as readonly string[]).includes(code);
}

/**
 * Turns what a failed `fs` call threw into a ReverieError whose code says what went wrong
 * (`READ_ONLY` for EROFS, `NO_SPACE` for ENOSPC/EDQUOT, `NOT_A_DIRECTORY` for ENOTDIR — or EEXIST
 * while creating a folder —, `IS_A_DIRECTORY`, `PERMISSION_DENIED`, else `IO_ERROR`), with the
 * path (the failing call's own path when it names one), the action, and what to do. A ReverieError passes through unchanged.
 * Anything else thrown on the way (a bug, not the disk) is `internalError`: no advice about disks
 * sends the user the wrong way. Pure: no I/O.
 */
export function fileSystemError(error: unknown, action: string, path: string): ReverieError {
  if (error instanceof ReverieError) return error;
  const errno = typeof (error as { code?: unknown } | null)?.code === 'string' ? (error as { code: string }).code : undefined;
  if (!isSystemError(errno, error)) return internalError(error, action);
  const code = codeOf(errno, (error as { syscall?: unknown } | null)?.syscall);
  const reason = error instanceof Error ? error.message : String(error);
  const where = typeof (error as { path?: unknown } | null)?.path === 'string' ? (error as { path: string }).path : path;
  return new ReverieError(code, `Could not ${action} (${where}): ${reason}. ${ADVICE[code]}`, {
    cause: error,
    details: { path: where, action, ...(errno === undefined ? {} : { errno }) },
  });
}

function codeOf(errno: string | undefined, syscall: unknown): Extract<ReverieErrorCode, FileSystemErrorCode> {
  switch (errno) {
    case 'EROFS':
      return 'READ_ONLY';
    case 'EACCES':
    case 'EPERM':
      return 'PERMISSION_DENIED';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'NO_SPACE';
    case 'ENOTDIR':
      return 'NOT_A_DIRECTORY';
    case 'EEXIST':
      return syscall === 'mkdir' ? 'NOT_A_DIRECTORY' : 'IO_ERROR';
    case 'EISDIR':
      return 'IS_A_DIRECTORY';
    default:
      return 'IO_ERROR';
  }
}

/** An error Node's file-system calls raise: an errno code such as ENOENT, or a failed syscall. */
function isSystemError(errno: string | undefined, error: unknown): boolean {
  return (errno !== undefined && /^E[A-Z0-9]+$/.test(errno)) || typeof (error as { syscall?: unknown } | null)?.syscall === 'string';
}

/**
 * An unexpected exception (a programming error, not bad input nor a failing disk) as a
 * ReverieError with code `INTERNAL`, its message kept, and the action that was under way. A
 * ReverieError passes through unchanged.
 */
export function internalError(error: unknown, action: string): ReverieError {
  if (error instanceof ReverieError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ReverieError(
    'INTERNAL',
    `Could not ${action}: ${reason}. This is a fault in Reverie, not in your data or disk: please report it with this message.`,
    {
      cause: error,
      details: { action },
    },
  );
}
