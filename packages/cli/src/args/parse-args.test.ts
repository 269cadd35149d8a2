import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors/cli-error';
import { type OptionSpec, parseArgs, parseAsOf, parseInteger, parseNumberBetween } from './parse-args';

const specs: OptionSpec[] = [
  { name: 'data', type: 'string', value: 'DIR', description: 'data directory' },
  { name: 'format', type: 'string', choices: ['text', 'json'], description: 'output' },
  { name: 'dry-run', type: 'boolean', description: 'plan only' },
  { name: 'help', short: 'h', type: 'boolean', description: 'help' },
];

describe('parseArgs', () => {
  it('reads long options with separate or inline values, flags, short aliases and positionals', () => {
    expect(parseArgs(['search', '--data', '/d', 'metric units', '--format=json', '--dry-run', '-h'], specs)).toEqual({
      options: { data: '/d', format: 'json', 'dry-run': true, help: true },
      positionals: ['search', 'metric units'],
    });
  });

  it('treats everything after -- and a lone - as positionals', () => {
    expect(parseArgs(['add', '-', '--', '--not-an-option'], specs).positionals).toEqual(['add', '-', '--not-an-option']);
  });

  it('keeps the last value of a repeated option', () => {
    expect(parseArgs(['--format', 'text', '--format', 'json'], specs).options.format).toBe('json');
  });

  it.each([
    [['--nope'], 'unknown option --nope'],
    [['-x'], 'unknown option -x'],
    [['--data'], 'option --data needs a value (DIR)'],
    [['--data', '--format', 'json'], 'option --data needs a value (DIR)'],
    [['--format', 'yaml'], 'option --format must be one of text, json (got "yaml")'],
    [['--dry-run=yes'], 'option --dry-run takes no value'],
  ])('refuses %j with a usage error', (argv, message) => {
    expect(() => parseArgs(argv, specs)).toThrow(new UsageError(message));
  });
});

describe('number options', () => {
  it('accepts whole numbers from the minimum and numbers in range', () => {
    expect(parseInteger('12', 'limit', 1)).toBe(12);
    expect(parseNumberBetween('0.75', 'importance', 0, 1)).toBe(0.75);
  });

  it.each(['0', '-3', '2.5', 'ten', ''])('refuses %j as a limit', (value) => {
    expect(() => parseInteger(value, 'limit', 1)).toThrow(UsageError);
  });

  it.each(['1.5', '-0.1', 'high', ''])('refuses %j as an importance', (value) => {
    expect(() => parseNumberBetween(value, 'importance', 0, 1)).toThrow(/--importance must be a number from 0 to 1/);
  });
});

describe('--as-of', () => {
  it('reads a day as its end (UTC) and a timestamp with a zone as that instant', () => {
    expect(parseAsOf('2025-06-01')).toBe('2025-06-01T23:59:59.999Z');
    expect(parseAsOf('2025-06-01T12:00:00+02:00')).toBe('2025-06-01T10:00:00.000Z');
  });

  it.each(['2025-02-30', '2025-06-01T12:00:00', 'last week', ''])('refuses %j', (value) => {
    expect(() => parseAsOf(value)).toThrow(/--as-of must be a day/);
  });
});
