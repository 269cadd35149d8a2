import { describeFailure } from './errors/describe-failure';
import { EXIT } from './errors/exit-codes';
import { runCli } from './main';
import { processIo } from './runtime/cli-io';

// The `reverie` binary. Exit codes: see src/errors/exit-codes.ts and docs/cli.md.

// A reader that stops early (`reverie memory list | head -1`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT.OK);
});

// Anything that escapes a command (a background rejection, say) still ends as one line.
const crash = (error: unknown) => {
  process.stderr.write(`reverie: ${describeFailure(error).message}\n`);
  process.exit(EXIT.FAILED);
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

process.exitCode = await runCli(process.argv.slice(2), processIo());
