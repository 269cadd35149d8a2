import { UsageError } from '../errors/cli-error';

/** One `--name` option of a command (or of every command). */
export interface OptionSpec {
  name: string;
  /** 'boolean': a flag; 'string': takes a value (`--name value` or `--name=value`). */
  type: 'boolean' | 'string';
  short?: string;
  /** The value's placeholder in help (`N`, `DIR`). */
  value?: string;
  /** The only values accepted. */
  choices?: readonly string[];
  description: string;
}

export interface ParsedArgs {
  options: Record<string, string | boolean>;
  positionals: string[];
}

/**
 * A small strict parser: long options (`--limit 5`, `--limit=5`), short aliases (`-h`), `--` to
 * end options, and `-` as a positional (stdin). Unknown options, missing values and values
 * outside `choices` are usage errors. A repeated option keeps its last value.
 */
export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const options = new Map<string, string | boolean>();
  const positionals: string[] = [];
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const byShort = new Map(specs.filter((spec) => spec.short).map((spec) => [spec.short!, spec]));

  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!token.startsWith('-') || token === '-') {
      positionals.push(token);
      continue;
    }
    const long = token.startsWith('--');
    const [rawName, inline] = splitInline(long ? token.slice(2) : token.slice(1));
    const spec = long ? byName.get(rawName) : byShort.get(rawName);
    if (!spec) throw new UsageError(`unknown option ${long ? '--' : '-'}${rawName}`);
    if (spec.type === 'boolean') {
      if (inline !== undefined) throw new UsageError(`option --${spec.name} takes no value`);
      options.set(spec.name, true);
      continue;
    }
    const value = inline ?? argv[i + 1];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) {
      throw new UsageError(`option --${spec.name} needs a value${spec.value ? ` (${spec.value})` : ''}`);
    }
    if (inline === undefined) i++;
    if (spec.choices && !spec.choices.includes(value)) {
      throw new UsageError(`option --${spec.name} must be one of ${spec.choices.join(', ')} (got ${JSON.stringify(value)})`);
    }
    options.set(spec.name, value);
  }
  return { options: Object.fromEntries(options), positionals };
}

function splitInline(text: string): [string, string | undefined] {
  const at = text.indexOf('=');
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** A whole number of at least `min`, or a usage error naming the option. */
export function parseInteger(value: string, option: string, min: number): number {
  const number = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < min) {
    throw new UsageError(`option --${option} must be a whole number of at least ${min} (got ${JSON.stringify(value)})`);
  }
  return number;
}

/**
 * `--as-of`: a day (`2025-06-01`, memory as it stood at the end of that day, UTC) or an ISO
 * timestamp with a zone, as an ISO string; a usage error otherwise.
 */
export function parseAsOf(value: string): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  const instant = day ? Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]), 23, 59, 59, 999) : Date.parse(value);
  const valid = day
    ? new Date(instant).toISOString().startsWith(value.trim())
    : /(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim()) && Number.isFinite(instant);
  if (!valid)
    throw new UsageError(
      `option --as-of must be a day such as 2025-06-01 or a timestamp with a zone such as 2025-06-01T12:00:00Z (got ${JSON.stringify(value)})`,
    );
  return new Date(instant).toISOString();
}

/** A number between `min` and `max`, or a usage error naming the option. */
export function parseNumberBetween(value: string, option: string, min: number, max: number): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < min || number > max) {
    throw new UsageError(`option --${option} must be a number from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
  return number;
}
