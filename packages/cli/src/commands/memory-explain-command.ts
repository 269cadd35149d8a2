import { resolve } from 'node:path';
import { CliError } from '../errors/cli-error';
import { EXIT } from '../errors/exit-codes';
import { renderValue } from '../output/render-tiers';
import { readDreamingOptions } from '../runtime/open-reverie';
import { type Command, DREAMING_OPTIONS_OPTION, formatOption } from './command';

export const memoryExplainCommand: Command = {
  group: 'memory',
  name: 'explain',
  summary: 'Why an entry was or was not promoted, and its value score and tier',
  description: [
    'Shows how often an entry was recalled, its four recall signals (frequency, relevance,',
    'recency, freshness), the score and what it misses for promotion, as of the last',
    'recall-signals pass; then its tier, its value score (SPEC B13) with the four parts',
    '(recall, importance, reinforcement, recency) and what the next tier-migration run would',
    'do with it, by the tiers options of --options. Exits with 4 when no entry has that id.',
  ].join('\n'),
  args: [{ name: 'id', required: true, description: "The entry's id (from memory search or list)" }],
  options: [DREAMING_OPTIONS_OPTION, formatOption()],
  examples: ['reverie memory explain 3f9c2a7b1d04 --format json'],
  async run(context) {
    const { options } = context;
    const dreaming = await readDreamingOptions(typeof options.options === 'string' ? resolve(context.io.cwd, options.options) : undefined);
    const reverie = await context.open('read', { dreaming });
    const explanation = await reverie.dreams.explain(context.args.id!);
    if (explanation.status === 'not-found') throw new CliError(`no memory entry has the id ${explanation.entryId}`, EXIT.NOT_FOUND);
    if (context.options.format === 'json') context.printJson(explanation);
    else
      context.print(
        [
          `${explanation.entryId}: ${explanation.status}`,
          ...explanation.reasons.map((reason) => `  ${reason}`),
          ...(explanation.value ? renderValue(explanation.value) : []),
        ].join('\n'),
      );
  },
};
