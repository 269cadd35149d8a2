import { EXIT, type ExitCode } from './exit-codes';

/** An error the CLI reports as one line on stderr, exiting with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Bad command line: unknown command or option, a bad value, a missing argument (exit 2). */
export class UsageError extends CliError {
  constructor(
    message: string,
    /** The usage line of the command, shown as a hint. */
    readonly usage?: string,
  ) {
    super(message, EXIT.USAGE);
    this.name = 'UsageError';
  }
}
