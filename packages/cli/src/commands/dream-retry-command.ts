import { CliError } from '../errors/cli-error';
import { EXIT } from '../errors/exit-codes';
import { loadModel } from '../model/load-model';
import { renderRunReport } from '../output/render-run-report';
import { type Command, formatOption } from './command';

export const dreamRetryCommand: Command = {
  group: 'dream',
  name: 'retry',
  summary: 'Re-run the failed passes of a dream run',
  description: [
    'Re-runs the passes that failed in a run (its dead letter in _system/dreams/failures/), with',
    'the model from REVERIE_MODEL. The dead letter goes when every retried pass succeeds; without a',
    'model, the passes that need one are not run and the dead letter is kept.',
    'Exits with 1 when a pass fails again, 4 when the run or its dead letter does not exist.',
  ].join('\n'),
  args: [{ name: 'runId', required: true, description: "The failed run's id (printed by dream run)" }],
  options: [formatOption()],
  examples: ['reverie dream retry 3f9c2a7b1d04', 'REVERIE_MODEL=openai:gpt-4.1-mini reverie dream retry 3f9c2a7b1d04 --format json'],
  async run(context) {
    const model = await loadModel(context.io.env);
    const reverie = await context.open('write', { model });
    await reverie.dreams.recover();
    const report = await reverie.dreams.retry(context.args.runId!);
    if (context.options.format === 'json') context.printJson({ ...report, model: model?.label ?? null });
    else context.print(renderRunReport(report, { model: model?.label, needsModel: [], withoutModel: [], recovered: [] }));
    const failed = report.passes.filter((pass) => pass.status === 'failed').map((pass) => pass.name);
    if (failed.length > 0)
      throw new CliError(
        `retry of ${context.args.runId}: ${failed.join(', ')} failed again (see 'reverie dream show ${report.runId}')`,
        EXIT.FAILED,
      );
  },
};
