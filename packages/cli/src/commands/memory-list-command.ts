import { memoryJson, renderMemoryList } from '../output/render-memory';
import { type Command, formatOption } from './command';

export const memoryListCommand: Command = {
  group: 'memory',
  name: 'list',
  summary: 'Every long-term memory entry, oldest first',
  description:
    'Lists every entry of long-term memory (oldest first), optionally under one category. Importance is what the entry is worth now (decayed since it was last seen); the stored value follows in brackets when decay has lowered it, and JSON has both (importance, effectiveImportance).',
  args: [],
  options: [{ name: 'category', type: 'string', value: 'C', description: 'Only entries in category C or below it' }, formatOption()],
  examples: ['reverie memory list', 'reverie memory list --category preferences --format json'],
  async run(context) {
    const { options } = context;
    const reverie = await context.open('read');
    const entries = await reverie.memory!.list(typeof options.category === 'string' ? { category: options.category } : {});
    const importanceOf = reverie.importanceOf;
    if (options.format === 'json') context.printJson(entries.map((entry) => memoryJson(entry, importanceOf)));
    else context.print(renderMemoryList(entries, importanceOf));
  },
};
