import type { DreamStateStore } from '@reverie/dream-state';
import type { Reverie } from 'reverie';
import type { OptionSpec } from '../args/parse-args';
import type { ExitCode } from '../errors/exit-codes';
import type { CliIo } from '../runtime/cli-io';
import type { ReverieSetup } from '../runtime/open-reverie';

/** A positional argument; `rest` takes every remaining word, joined by spaces. */
export interface ArgSpec {
  name: string;
  required: boolean;
  rest?: boolean;
  description: string;
}

/** What a command is given when it runs. */
export interface CommandContext {
  args: Record<string, string | undefined>;
  options: Record<string, string | boolean | undefined>;
  /**
   * The absolute data directory (`--data`, `REVERIE_DATA`, or `./.reverie`; a scope's folder below
   * it with `--scope`). With `--postgres` it only holds the directives.
   */
  dataPath: string;
  /** Where the stores are: the data directory's files, or a PostgreSQL database (`--postgres`). */
  backend: 'files' | 'postgres';
  /** Where the stores are, for messages: the data directory, or `scope S of postgres://…` (no password). */
  where: string;
  io: CliIo;
  /** Checks the data directory without building a Reverie (exit 3 when it cannot be used). */
  prepare(access: 'read' | 'write'): Promise<void>;
  /**
   * Checks the data directory (exit 3 when it cannot be used; a missing one is created for
   * 'write' on the file stores) and builds a Reverie over the stores, with the dream schedule
   * off. The CLI closes it after the command.
   */
  open(access: 'read' | 'write', setup?: ReverieSetup): Promise<Reverie>;
  /** The dream state (runs, dead letters, lock) without building a Reverie; the CLI closes it after the command. */
  dreamState(): Promise<DreamStateStore>;
  /** Writes text (a newline is added) or JSON to stdout. */
  print(text: string): void;
  printJson(value: unknown): void;
  /** Writes a line to stderr that is not an error (progress, notes). */
  note(text: string): void;
}

/** One entry of the command table: everything `reverie` needs to parse, document and run it. */
export interface Command {
  /** `dream`, `memory`, `skills`, or undefined for a top-level command (`doctor`). */
  group?: string;
  name: string;
  /** One line for the command list. */
  summary: string;
  /** A paragraph for `--help`. */
  description: string;
  args: readonly ArgSpec[];
  options: readonly OptionSpec[];
  examples: readonly string[];
  /** Resolves to the exit code (0 when nothing is returned); throws for errors. */
  run(context: CommandContext): Promise<ExitCode | void>;
}

/** `--options FILE`: the dreaming options the host app passes to `withDreaming()`, as JSON. */
export const DREAMING_OPTIONS_OPTION: OptionSpec = {
  name: 'options',
  type: 'string',
  value: 'FILE',
  description: "JSON file with your app's withDreaming() options (default: the built-in defaults)",
};

/** `--format`, with the formats a command can print. */
export function formatOption(choices: readonly string[] = ['text', 'json']): OptionSpec {
  return { name: 'format', type: 'string', value: choices.join('|'), choices, description: `Output format (default ${choices[0]})` };
}

/** The full invocation of a command (`reverie memory search`). */
export function commandPath(command: Pick<Command, 'group' | 'name'>): string {
  return ['reverie', command.group, command.name].filter(Boolean).join(' ');
}

/** `reverie memory search <query> [--limit N] [--category C] [--format text|json]`, from the specs. */
export function usageLine(command: Command): string {
  const args = command.args.map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`) + (arg.rest ? '...' : ''));
  const options = command.options.map((option) => `[--${option.name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}]`);
  return [commandPath(command), ...args, ...options].join(' ');
}
