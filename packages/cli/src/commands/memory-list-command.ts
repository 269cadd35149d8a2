import { memoryJson, renderMemoryList } from '../output/render-memory';
import { type Command, formatOption } from './command';

export const memoryListCommand: Command = {
  group: 'memory',
  name: 'list',
  summary: 'Every long-term memory entry, oldest first',
  description:
    'Lists every entry of long-term memory, hot and cold (oldest first), optionally under one category or of one tier (cold entries are marked). Importance is what the entry is worth now (decayed since it was last seen); the stored value follows in brackets when decay has lowered it, and JSON has both (importance, effectiveImportance).',
  args: [],
  options: [
    { name: 'category', type: 'string', value: 'C', description: 'Only entries in category C or below it' },
    {
      name: 'tier',
      type: 'string',
      value: 'hot|cold',
      choices: ['hot', 'cold'],
      description: 'Only the entries of this tier (default both)',
    },
    formatOption(),
  ],
  examples: ['reverie memory list', 'reverie memory list --category preferences --format json', 'reverie memory list --tier cold'],
  async run(context) {
    const { options } = context;
    const reverie = await context.open('read');
    const entries = await reverie.memory!.list({
      ...(typeof options.category === 'string' ? { category: options.category } : {}),
      ...(typeof options.tier === 'string' ? { tier: options.tier as 'hot' | 'cold' } : {}),
    });
    const importanceOf = reverie.importanceOf;
    if (options.format === 'json') context.printJson(entries.map((entry) => memoryJson(entry, importanceOf)));
    else context.print(renderMemoryList(entries, importanceOf));
  },
};
