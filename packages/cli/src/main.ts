import type { Reverie } from 'reverie';
import { version } from '../package.json';
import { type OptionSpec, parseArgs } from './args/parse-args';
import { type Command, type CommandContext, commandPath } from './commands/command';
import { COMMANDS } from './commands/command-table';
import { UsageError } from './errors/cli-error';
import { describeFailure } from './errors/describe-failure';
import { EXIT, type ExitCode } from './errors/exit-codes';
import { renderCommandHelp, renderGlobalHelp, renderGroupHelp } from './help/render-help';
import type { CliIo } from './runtime/cli-io';
import { describeTarget, prepareTarget, resolveTarget } from './runtime/cli-target';
import { openDreamState, openReverie } from './runtime/open-reverie';

export const CLI_VERSION = version;

/** Options every command takes, before or after the command words. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { name: 'data', type: 'string', value: 'DIR', description: "The agent's data directory (default $REVERIE_DATA, else ./.reverie)" },
  {
    name: 'scope',
    type: 'string',
    value: 'SCOPE',
    description:
      'Whose memory, e.g. user:42: its folder below the data directory, or its rows with --postgres (default $REVERIE_SCOPE, else none; "default" with --postgres)',
  },
  {
    name: 'postgres',
    type: 'string',
    value: 'URL',
    description:
      "Keep memory and the dream state in this PostgreSQL database, postgres://… (default $REVERIE_DATABASE_URL, else the data directory's files)",
  },
  { name: 'help', short: 'h', type: 'boolean', description: 'Show help for reverie, a group or a command' },
  { name: 'version', short: 'V', type: 'boolean', description: 'Print the version' },
];

/**
 * Runs one invocation of `reverie` and resolves to its exit code. Every failure ends as one
 * line `reverie: <message>` on stderr, never a stack trace.
 */
export async function runCli(argv: readonly string[], io: CliIo, commands: readonly Command[] = COMMANDS): Promise<ExitCode> {
  const opened: Reverie[] = [];
  const closers: Array<() => Promise<void>> = [];
  let helpHint = "run 'reverie --help' to see the commands";
  try {
    const { leading, index } = splitLeadingOptions(argv);
    const globals = parseArgs(leading, GLOBAL_OPTIONS).options;
    const word = argv[index];
    if (globals.version) return print(io, CLI_VERSION);
    if (word === undefined) {
      if (globals.help) return print(io, renderGlobalHelp(commands, GLOBAL_OPTIONS, CLI_VERSION), '');
      throw new UsageError('missing command');
    }

    if (commands.some((c) => c.group === word)) helpHint = `run 'reverie ${word} --help' to see its commands`;
    const { command, rest } = findCommand(word, argv.slice(index + 1), commands, io);
    if (command === 'help-shown') return EXIT.OK;
    helpHint = `see '${commandPath(command)} --help'`;
    const beforeEnd = rest.indexOf('--') === -1 ? rest : rest.slice(0, rest.indexOf('--'));
    if (globals.help || beforeEnd.includes('--help') || beforeEnd.includes('-h')) {
      return print(io, renderCommandHelp(command, GLOBAL_OPTIONS), '');
    }

    const parsed = parseArgs([...leading, ...rest], [...GLOBAL_OPTIONS, ...command.options]);
    if (parsed.options.version) return print(io, CLI_VERSION);
    const args = bindArguments(command, parsed.positionals);
    const target = resolveTarget(parsed.options, io.env, io.cwd);
    const context: CommandContext = {
      args,
      options: parsed.options,
      dataPath: target.dataPath,
      backend: target.kind,
      where: describeTarget(target),
      io,
      prepare: (access) => prepareTarget(target, access),
      async open(access, setup) {
        await prepareTarget(target, access);
        const reverie = openReverie(target, setup);
        opened.push(reverie);
        return reverie;
      },
      async dreamState() {
        const state = await openDreamState(target);
        closers.push(state.close);
        return state.state;
      },
      print: (text) => io.stdout.write(`${text}\n`),
      printJson: (value) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
      note: (text) => io.stderr.write(`${text}\n`),
    };
    return (await command.run(context)) ?? EXIT.OK;
  } catch (error) {
    const { exitCode, message } = describeFailure(error);
    const hint = exitCode === EXIT.USAGE ? `; ${helpHint}` : '';
    io.stderr.write(`reverie: ${hint ? message.replace(/\.$/, '') : message}${hint}\n`);
    return exitCode;
  } finally {
    for (const reverie of opened) await reverie.close().catch(() => undefined);
    for (const close of closers) await close().catch(() => undefined);
  }
}

function print(io: CliIo, text: string, end = '\n'): ExitCode {
  io.stdout.write(`${text}${end}`);
  return EXIT.OK;
}

/** The global options before the first command word (`reverie --data d memory list`). */
function splitLeadingOptions(argv: readonly string[]): { leading: string[]; index: number } {
  const takesValue = new Set(GLOBAL_OPTIONS.filter((o) => o.type === 'string').map((o) => `--${o.name}`));
  let index = 0;
  while (index < argv.length && argv[index]!.startsWith('-') && argv[index] !== '-') {
    if (takesValue.has(argv[index]!) && index + 1 < argv.length) index++;
    index++;
  }
  return { leading: argv.slice(0, index), index };
}

function findCommand(
  word: string,
  after: readonly string[],
  commands: readonly Command[],
  io: CliIo,
): { command: Command | 'help-shown'; rest: string[] } {
  const topLevel = commands.find((c) => c.group === undefined && c.name === word);
  if (topLevel) return { command: topLevel, rest: [...after] };
  const members = commands.filter((c) => c.group === word);
  if (members.length === 0) throw new UsageError(`unknown command '${word}'`);
  const [name, ...rest] = after;
  if (name === undefined || name.startsWith('-')) {
    if (after.includes('--help') || after.includes('-h')) {
      print(io, renderGroupHelp(word, commands), '');
      return { command: 'help-shown', rest: [] };
    }
    throw new UsageError(`missing command: reverie ${word} <${members.map((c) => c.name).join('|')}>`);
  }
  const command = members.find((c) => c.name === name);
  if (!command)
    throw new UsageError(`unknown command 'reverie ${word} ${name}'; the ${word} commands are ${members.map((c) => c.name).join(', ')}`);
  return { command, rest };
}

/** Positionals by argument name; a `rest` argument takes the remaining words joined by spaces. */
function bindArguments(command: Command, positionals: readonly string[]): Record<string, string | undefined> {
  const bound = new Map<string, string>();
  let next = 0;
  for (const arg of command.args) {
    const value = arg.rest ? positionals.slice(next).join(' ') : positionals[next];
    next = arg.rest ? positionals.length : next + 1;
    if (value === undefined || value.trim() === '') {
      if (arg.required) throw new UsageError(`missing argument <${arg.name}>`);
      continue;
    }
    bound.set(arg.name, value);
  }
  if (next < positionals.length) throw new UsageError(`unexpected argument '${positionals[next]}'`);
  return Object.fromEntries(bound);
}
