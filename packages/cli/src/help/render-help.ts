import type { OptionSpec } from '../args/parse-args';
import { type Command, usageLine } from '../commands/command';

/** The command groups, in the order help lists them. */
export const GROUPS: ReadonlyArray<{ name: string; title: string }> = [
  { name: 'dream', title: 'The dream cycle' },
  { name: 'memory', title: 'Long-term memory' },
  { name: 'skills', title: 'The skill library' },
];

const ENVIRONMENT = [
  ['REVERIE_DATA', 'Data directory when --data is not given (default ./.reverie)'],
  ['REVERIE_SCOPE', 'Scope when --scope is not given'],
  ['REVERIE_DATABASE_URL', "PostgreSQL database when --postgres is not given (default: the data directory's files)"],
  ['REVERIE_MODEL', 'Model for the dream passes: openai:<model>, anthropic:<model>, ollama:<model> or <base-url>#<model>'],
  ['OPENAI_API_KEY', 'Needed by openai:<model>'],
  ['ANTHROPIC_API_KEY', 'Needed by anthropic:<model>'],
  ['OLLAMA_BASE_URL', 'Where ollama:<model> is served (default http://localhost:11434/v1)'],
  ['REVERIE_API_KEY', 'Bearer key sent to a <base-url>#<model> endpoint, if it needs one'],
] as const;

const EXIT_CODES = [
  ['0', 'ok'],
  ['1', 'a dream run had a failed or interrupted pass, or an operation failed'],
  ['2', 'usage error: unknown command or option, bad value, missing argument'],
  ['3', 'the data directory cannot be read or written, or the --postgres database cannot be used'],
  ['4', 'not found: no such run id or memory id'],
  ['5', 'lock held: another process is running a dream cycle on this data directory'],
] as const;

function table(rows: ReadonlyArray<readonly [string, string]>, indent = '  '): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${indent}${left.padEnd(width)}  ${right}`);
}

function optionRows(options: readonly OptionSpec[]): Array<[string, string]> {
  return options.map((option) => [
    `${option.short ? `-${option.short}, ` : ''}--${option.name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}`,
    option.description,
  ]);
}

export function renderGlobalHelp(commands: readonly Command[], globalOptions: readonly OptionSpec[], version: string): string {
  const lines = [
    `reverie ${version} — operate an agent's Reverie data directory: memory, skills and the dream cycle`,
    '',
    'Usage: reverie [--data DIR] [--scope SCOPE] [--postgres URL] <command> [options] [arguments]',
  ];
  for (const group of GROUPS) {
    lines.push('', `${group.title}:`);
    lines.push(...table(commands.filter((c) => c.group === group.name).map((c) => [`${group.name} ${c.name}`, c.summary] as const)));
  }
  const topLevel = commands.filter((c) => c.group === undefined);
  if (topLevel.length > 0) lines.push('', 'Other:', ...table(topLevel.map((c) => [c.name, c.summary] as const)));
  lines.push('', 'Global options:', ...table(optionRows(globalOptions)));
  lines.push('', 'Environment:', ...table(ENVIRONMENT));
  lines.push('', 'Exit codes:', ...table(EXIT_CODES));
  lines.push('', "Run 'reverie <group> --help' or 'reverie <group> <command> --help' for details.");
  return `${lines.join('\n')}\n`;
}

export function renderGroupHelp(group: string, commands: readonly Command[]): string {
  const members = commands.filter((c) => c.group === group);
  const title = GROUPS.find((g) => g.name === group)?.title ?? group;
  const lines = [`${title}.`, '', `Usage: reverie ${group} <${members.map((c) => c.name).join('|')}> [options]`, '', 'Commands:'];
  lines.push(...table(members.map((c) => [c.name, c.summary] as const)));
  lines.push('', `Run 'reverie ${group} <command> --help' for a command's options.`);
  return `${lines.join('\n')}\n`;
}

export function renderCommandHelp(command: Command, globalOptions: readonly OptionSpec[]): string {
  const lines = [`Usage: ${usageLine(command)}`, '', command.description];
  if (command.args.length > 0) lines.push('', 'Arguments:', ...table(command.args.map((arg) => [arg.name, arg.description] as const)));
  if (command.options.length > 0) lines.push('', 'Options:', ...table(optionRows(command.options)));
  lines.push('', 'Global options:', ...table(optionRows(globalOptions)));
  if (command.examples.length > 0) lines.push('', 'Examples:', ...command.examples.map((example) => `  ${example}`));
  return `${lines.join('\n')}\n`;
}
