import { CliError } from '../errors/cli-error';
import { EXIT } from '../errors/exit-codes';
import { type Command, formatOption } from './command';

export const memoryExplainCommand: Command = {
  group: 'memory',
  name: 'explain',
  summary: 'Why an entry was or was not promoted by its recall signals',
  description: [
    'Shows how often an entry was recalled, its four recall signals (frequency, relevance,',
    'recency, freshness), the score and what it misses for promotion, as of the last',
    'recall-signals pass. Exits with 4 when no entry has that id.',
  ].join('\n'),
  args: [{ name: 'id', required: true, description: "The entry's id (from memory search or list)" }],
  options: [formatOption()],
  examples: ['reverie memory explain 3f9c2a7b1d04 --format json'],
  async run(context) {
    const reverie = await context.open('read');
    const explanation = await reverie.dreams.explain(context.args.id!);
    if (explanation.status === 'not-found') throw new CliError(`no memory entry has the id ${explanation.entryId}`, EXIT.NOT_FOUND);
    if (context.options.format === 'json') context.printJson(explanation);
    else context.print([`${explanation.entryId}: ${explanation.status}`, ...explanation.reasons.map((reason) => `  ${reason}`)].join('\n'));
  },
};
