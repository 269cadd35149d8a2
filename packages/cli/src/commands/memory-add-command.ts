import { text } from 'node:stream/consumers';
import { refuseSystemCategory } from '@reverie/core/internal';
import { parseNumberBetween } from '../args/parse-args';
import { UsageError } from '../errors/cli-error';
import { type Command, formatOption } from './command';

export const memoryAddCommand: Command = {
  group: 'memory',
  name: 'add',
  summary: 'Save a new long-term memory entry',
  description: 'Saves a new entry in long-term memory and prints its id. Pass - as the content to read it from stdin.',
  args: [{ name: 'content', required: true, rest: true, description: 'The fact to remember (several words are joined), or - for stdin' }],
  options: [
    {
      name: 'category',
      type: 'string',
      value: 'C',
      description: 'Category, a slash path such as preferences/units (default general; _system/ is reserved for Reverie)',
    },
    { name: 'tags', type: 'string', value: 'a,b', description: 'Comma-separated tags' },
    { name: 'importance', type: 'string', value: 'X', description: 'Importance from 0 to 1 (default 0.5)' },
    formatOption(),
  ],
  examples: [
    'reverie memory add "The user wants answers in metric units" --category preferences --tags units',
    'echo "Deploys go out on Tuesdays" | reverie memory add - --importance 0.8',
  ],
  async run(context) {
    const { options } = context;
    const importance = typeof options.importance === 'string' ? parseNumberBetween(options.importance, 'importance', 0, 1) : undefined;
    const tags =
      typeof options.tags === 'string'
        ? options.tags
            .split(',')
            .map((tag) => tag.trim())
            .filter(Boolean)
        : undefined;
    const content = context.args.content === '-' ? (await text(context.io.stdin)).trim() : context.args.content!;
    if (content === '') throw new UsageError('the content to remember is empty');
    // SPEC O7: refused before the data directory is touched (reverie.memory.save refuses it too).
    refuseSystemCategory(options.category);
    const reverie = await context.open('write');
    const entry = await reverie.memory!.save({
      content,
      ...(typeof options.category === 'string' ? { category: options.category } : {}),
      ...(tags ? { tags } : {}),
      ...(importance === undefined ? {} : { importance }),
    });
    if (options.format === 'json') context.printJson(entry);
    else context.print(`Saved ${entry.id} in ${entry.category}.`);
  },
};
