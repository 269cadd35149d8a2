import { parseAsOf, parseInteger } from '../args/parse-args';
import { memoryJson, renderMemorySearch } from '../output/render-memory';
import { type Command, formatOption } from './command';

export const memorySearchCommand: Command = {
  group: 'memory',
  name: 'search',
  summary: 'Ranked recall over long-term memory',
  description: [
    'Searches long-term memory the way the agent recalls: BM25 over content, tags and category, best first,',
    'among the facts that hold now (superseded ones left out). With --as-of, memory as it stood at that',
    'date: the facts that held then, nothing noted later. Cold entries (SPEC B13) are searched when the',
    'hot results are weak (--tiers fallback, the default), never (hot) or always (all); they are marked.',
  ].join('\n'),
  args: [{ name: 'query', required: true, rest: true, description: 'What to look for (several words are joined)' }],
  options: [
    { name: 'limit', type: 'string', value: 'N', description: 'At most N results (default 8)' },
    { name: 'category', type: 'string', value: 'C', description: 'Only entries in category C or below it' },
    { name: 'as-of', type: 'string', value: 'DATE', description: 'Memory as it stood at DATE (ISO: 2025-06-01 or 2025-06-01T12:00:00Z)' },
    {
      name: 'tiers',
      type: 'string',
      value: 'fallback|hot|all',
      choices: ['fallback', 'hot', 'all'],
      description: 'Which tiers to search (default fallback: cold entries when the hot results are weak)',
    },
    formatOption(),
  ],
  examples: [
    'reverie memory search "metric units"',
    'reverie memory search "old address" --tiers all',
    'reverie memory search deploy --category projects --limit 3 --format json',
    'reverie memory search "where does the user live" --as-of 2025-06-01',
  ],
  async run(context) {
    const { options } = context;
    const limit = typeof options.limit === 'string' ? parseInteger(options.limit, 'limit', 1) : 8;
    const reverie = await context.open('read');
    const results = await reverie.memory!.search({
      text: context.args.query!,
      maxResults: Math.min(limit, 1000),
      ...(typeof options.category === 'string' ? { category: options.category } : {}),
      ...(typeof options['as-of'] === 'string' ? { asOf: parseAsOf(options['as-of']) } : {}),
      ...(typeof options.tiers === 'string' ? { tiers: options.tiers as 'fallback' | 'hot' | 'all' } : {}),
    });
    const importanceOf = reverie.importanceOf;
    if (options.format === 'json')
      context.printJson(results.map(({ entry, score }) => ({ entry: memoryJson(entry, importanceOf), score })));
    else context.print(renderMemorySearch(results, importanceOf));
  },
};
