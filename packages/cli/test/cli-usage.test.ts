import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/command-table';
import { expectOneLineError, runReverie, tempDir } from './__fixtures__/run-reverie';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

describe('help and version', () => {
  it('lists every command of the table, the environment and the exit codes', async () => {
    const result = await runReverie(['--help']);
    expect(result.code).toBe(0);
    for (const command of COMMANDS) {
      const words = [command.group, command.name].filter(Boolean).join(' ');
      expect(result.stdout.split('\n')).toContainEqual(expect.stringMatching(new RegExp(`^  ${words} +${escapeRegExp(command.summary)}$`)));
    }
    expect(result.stdout).toContain('REVERIE_MODEL');
    expect(result.stdout).toMatch(/^ {2}5 {2}lock held/m);
  });

  it('has help for each group and each command, also after other options', async () => {
    for (const group of ['dream', 'memory', 'skills']) {
      const result = await runReverie([group, '--help']);
      expect(result.code).toBe(0);
      for (const command of COMMANDS.filter((c) => c.group === group)) expect(result.stdout).toContain(`  ${command.name}`);
    }
    for (const command of COMMANDS) {
      const words = [command.group, command.name].filter((w): w is string => w !== undefined);
      const result = await runReverie([...words, '--format', 'json', '--help']);
      expect(result.code, words.join(' ')).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^Usage: reverie ${words.join(' ')}`));
      expect(result.stdout).toContain('--data DIR');
    }
  });

  it('prints the version', async () => {
    for (const flag of ['--version', '-V']) {
      const result = await runReverie([flag]);
      expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });
});

describe('usage errors exit 2 with one line and no stack trace', () => {
  it.each([
    [[], /^reverie: missing command; run 'reverie --help'/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [
      ['memory'],
      /missing command: reverie memory <search\|list\|add\|delete\|forget\|categories\|explain\|tiers\|history>; run 'reverie memory --help'/,
    ],
    [
      ['memory', 'remember'],
      /unknown command 'reverie memory remember'; the memory commands are search, list, add, delete, forget, categories/,
    ],
    [['memory', 'forget', '--text', 'a', '--subject', 'b'], /'reverie memory forget' takes exactly one of ids, text or subject/],
    [['memory', 'list', '--verbose'], /unknown option --verbose; see 'reverie memory list --help'/],
    [['memory', 'list', 'extra'], /unexpected argument 'extra'/],
    [['memory', 'search'], /missing argument <query>/],
    [['memory', 'search', 'x', '--limit', '0'], /--limit must be a whole number of at least 1/],
    [['memory', 'add', 'x', '--importance', '2'], /--importance must be a number from 0 to 1/],
    [['memory', 'list', '--format', 'yaml'], /--format must be one of text, json/],
    [['dream', 'run', '--phase', 'dawn'], /--phase must be one of light-sleep, rem, deep-sleep \(got "dawn"\)/],
    [['dream', 'run', '--phase', 'rem', '--pass', 'importance-decay'], /use --phase or --pass, not both/],
    [['dream', 'undo'], /missing argument <runId>; see 'reverie dream undo --help'/],
    [['dream', 'show'], /missing argument <runId>/],
    [['memory', 'delete'], /missing argument <id>/],
    [['--data'], /option --data needs a value/],
  ])('reverie %j', async (args, message) => {
    expectOneLineError(await runReverie(['--data', dir.dataPath, ...args].slice(args[0] === '--data' ? 2 : 0)), 2, message);
  });

  it('refuses an invalid REVERIE_MODEL before touching the data directory', async () => {
    const result = await runReverie(['--data', dir.dataPath, 'dream', 'run'], { env: { REVERIE_MODEL: 'gpt-4.1-mini' } });
    expectOneLineError(
      result,
      2,
      /REVERIE_MODEL="gpt-4.1-mini" names no provider: use openai:<model>, anthropic:<model>, ollama:<model> or <base-url>#<model>/,
    );
    const keyless = await runReverie(['--data', dir.dataPath, 'dream', 'run'], { env: { REVERIE_MODEL: 'anthropic:claude-sonnet-4-5' } });
    expectOneLineError(keyless, 2, /needs ANTHROPIC_API_KEY to be set/);
  });
});
