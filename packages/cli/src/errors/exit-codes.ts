/**
 * The exit codes of `reverie`. They are part of the CLI's contract: scripts may rely on them,
 * so a code never changes meaning.
 */
export const EXIT = {
  /** Everything worked. */
  OK: 0,
  /** A dream run had a failed or interrupted pass, or an operation failed. */
  FAILED: 1,
  /** Unknown command or option, a bad value, a missing argument. */
  USAGE: 2,
  /** The data directory cannot be read or written (or is not a directory), or the database (`--postgres`) cannot be reached or used. */
  DATA_DIR: 3,
  /** The run id or memory id does not exist. */
  NOT_FOUND: 4,
  /** Another process holds the lock this operation needs (a dream run in progress). */
  LOCK_HELD: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
