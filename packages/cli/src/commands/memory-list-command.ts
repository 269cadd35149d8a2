import { renderMemoryList } from '../output/render-memory';
import { type Command, formatOption } from './command';

export const memoryListCommand: Command = {
  group: 'memory',
  name: 'list',
  summary: 'Every long-term memory entry, oldest first',
  description: 'Lists every entry of long-term memory (oldest first), optionally under one category.',
  args: [],
  options: [{ name: 'category', type: 'string', value: 'C', description: 'Only entries in category C or below it' }, formatOption()],
  examples: ['reverie memory list', 'reverie memory list --category preferences --format json'],
  async run(context) {
    const { options } = context;
    const reverie = await context.open('read');
    const entries = await reverie.memory!.list(typeof options.category === 'string' ? { category: options.category } : {});
    if (options.format === 'json') context.printJson(entries);
    else context.print(renderMemoryList(entries));
  },
};
