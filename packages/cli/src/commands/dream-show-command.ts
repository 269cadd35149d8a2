import { renderRunDetails } from '../output/render-run-details';
import { readRunDetails } from '../runs/read-run-details';
import { type Command, formatOption } from './command';

export const dreamShowCommand: Command = {
  group: 'dream',
  name: 'show',
  summary: 'What one dream run did, from its records',
  description: [
    'Shows one run from its folder (or its rows with --postgres): status, what each pass did (notes, refusals, errors), the',
    "journal of applied operations and the artifacts kept (prompts, replies, plans). 'latest'",
    'names the newest run. Exits with 4 when there is no run with that id.',
  ].join('\n'),
  args: [{ name: 'runId', required: true, description: "The run's id, or latest" }],
  options: [formatOption()],
  examples: ['reverie dream show latest', 'reverie dream show 3f9c2a7b1d04 --format json'],
  async run(context) {
    await context.prepare('read');
    const details = await readRunDetails(await context.dreamState(), context.args.runId!);
    if (context.options.format === 'json') context.printJson(details);
    else context.print(renderRunDetails(details));
  },
};
