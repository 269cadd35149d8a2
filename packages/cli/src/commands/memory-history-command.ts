import { renderMemoryHistory } from '../output/render-memory-history';
import { type Command, formatOption } from './command';

export const memoryHistoryCommand: Command = {
  group: 'memory',
  name: 'history',
  summary: 'Where an entry came from: the merges and supersessions behind it',
  description: [
    "Shows an entry's lineage (SPEC B10), oldest first: the entries merged into it or superseded",
    'by it (also those no longer stored, from what the entry recorded), how it was written (API,',
    'agent tool, import, extracted from sessions, merge) and the dream run of each step. Exits',
    'with 4 when no entry has that id.',
  ].join('\n'),
  args: [{ name: 'id', required: true, description: "The entry's id (from memory search or list)" }],
  options: [formatOption()],
  examples: ['reverie memory history 3f9c2a7b1d04', 'reverie memory history 3f9c2a7b1d04 --format json'],
  async run(context) {
    const reverie = await context.open('read');
    const history = await reverie.memory!.history(context.args.id!);
    if (context.options.format === 'json') context.printJson(history);
    else context.print(renderMemoryHistory(history));
  },
};
