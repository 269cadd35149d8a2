import { runCli } from './main';
import { processIo } from './runtime/cli-io';

// The `reverie` binary. Exit codes: see src/errors/exit-codes.ts and docs/cli.md.
process.exitCode = await runCli(process.argv.slice(2), processIo());
