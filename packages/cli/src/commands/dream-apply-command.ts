import { resolve } from 'node:path';
import { CliError } from '../errors/cli-error';
import { EXIT } from '../errors/exit-codes';
import { renderRunReport } from '../output/render-run-report';
import { passProgressPrinter } from '../progress/pass-progress-printer';
import { readDreamingOptions } from '../runtime/open-reverie';
import { type Command, DREAMING_OPTIONS_OPTION, formatOption } from './command';

export const dreamApplyCommand: Command = {
  group: 'dream',
  name: 'apply',
  summary: 'Apply the plan a dry run saved, exactly, without asking a model',
  description: [
    "Applies the plan that 'reverie dream run --dry-run' saved (its id is printed at the end of the",
    'dry run; see them all with reverie dream plans). Only that plan is applied, and no model is',
    'asked. Entries changed since the plan was made are left alone and listed as conflicts; the rest',
    'is applied as a normal run, which reverie dream undo reverses. A plan is applied once, and not',
    'after planMaxAge (default 24h, from --options). Exits with 4 for an unknown plan, 1 when the',
    'plan was already applied or is too old, or when a pass failed.',
  ].join('\n'),
  args: [{ name: 'planId', required: true, description: 'The plan id printed by dream run --dry-run' }],
  options: [DREAMING_OPTIONS_OPTION, formatOption()],
  examples: ['reverie dream run --dry-run', 'reverie dream apply 3f9c2a7b1d04', 'reverie dream apply 3f9c2a7b1d04 --format json'],
  async run(context) {
    const { options } = context;
    const dreaming = await readDreamingOptions(typeof options.options === 'string' ? resolve(context.io.cwd, options.options) : undefined);
    const reverie = await context.open('write', { dreaming });
    const recovered = await reverie.dreams.recover();
    for (const id of recovered) context.note(`Recovered dream run ${id}, which a crash had interrupted.`);
    const progress = passProgressPrinter(context.io.stderr);
    let report;
    try {
      report = await reverie.dreams.apply(context.args.planId!, { onPass: progress.onPass });
    } finally {
      progress.stop();
    }
    if (options.format === 'json') context.printJson({ ...report, recovered });
    else context.print(renderRunReport(report, { model: undefined, needsModel: [], withoutModel: [], recovered }));
    const failed = report.passes.filter((pass) => pass.status === 'failed').map((pass) => pass.name);
    if (failed.length > 0)
      throw new CliError(
        `dream run ${report.runId} (plan ${context.args.planId}): ${failed.join(', ')} failed (see 'reverie dream show ${report.runId}')`,
        EXIT.FAILED,
      );
  },
};
