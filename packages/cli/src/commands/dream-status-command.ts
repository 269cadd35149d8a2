import { renderDreamStatus } from 'reverie';
import { parseInteger } from '../args/parse-args';
import { type Command, formatOption } from './command';

export const dreamStatusCommand: Command = {
  group: 'dream',
  name: 'status',
  summary: 'What the dream cycle has been doing (the ledger, per phase)',
  description: [
    'Aggregates the ledger (_system/dreams/ledger.jsonl) per phase over a window: runs, passes ok,',
    'failed and skipped, items, changes applied, tokens; the last run of each pass, the last',
    'successful run and the lock. Dry runs are not in the ledger.',
  ].join('\n'),
  args: [],
  options: [
    { name: 'window-hours', type: 'string', value: 'N', description: 'How many hours back to look (default 24)' },
    formatOption(['text', 'json', 'markdown']),
  ],
  examples: ['reverie dream status', 'reverie dream status --window-hours 168 --format markdown'],
  async run(context) {
    const windowHours =
      typeof context.options['window-hours'] === 'string' ? parseInteger(context.options['window-hours'], 'window-hours', 1) : undefined;
    const reverie = await context.open('read');
    const status = await reverie.dreams.status(windowHours === undefined ? {} : { windowHours });
    const format = (context.options.format as 'text' | 'json' | 'markdown' | undefined) ?? 'text';
    context.print(renderDreamStatus(status, format).trimEnd());
  },
};
