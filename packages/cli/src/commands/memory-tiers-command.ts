import { resolve } from 'node:path';
import { parseInteger } from '../args/parse-args';
import { renderTierReport } from '../output/render-tiers';
import { readDreamingOptions } from '../runtime/open-reverie';
import { type Command, DREAMING_OPTIONS_OPTION, formatOption } from './command';

export const memoryTiersCommand: Command = {
  group: 'memory',
  name: 'tiers',
  summary: 'How many entries are hot and cold, and those nearest each threshold',
  description: [
    'Counts the hot and cold entries (SPEC B13), says whether tier migration is on (the tiers',
    'options, from --options), and lists the hot entries whose value score is nearest demoteBelow',
    'and the cold ones nearest promoteAbove, with what the next tier-migration run would do.',
  ].join('\n'),
  args: [],
  options: [
    { name: 'nearest', type: 'string', value: 'N', description: 'Entries listed near each threshold (default 5)' },
    DREAMING_OPTIONS_OPTION,
    formatOption(),
  ],
  examples: ['reverie memory tiers', 'reverie memory tiers --nearest 20 --options dreaming.json --format json'],
  async run(context) {
    const { options } = context;
    const nearest = typeof options.nearest === 'string' ? parseInteger(options.nearest, 'nearest', 0) : 5;
    const dreaming = await readDreamingOptions(typeof options.options === 'string' ? resolve(context.io.cwd, options.options) : undefined);
    const reverie = await context.open('read', { dreaming });
    const report = await reverie.dreams.tiers({ nearest: Math.min(nearest, 1000) });
    if (options.format === 'json') context.printJson(report);
    else context.print(renderTierReport(report));
  },
};
