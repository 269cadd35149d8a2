import { resolve } from 'node:path';
import { DREAM_PHASES, type DreamPhase } from '@reverie/dream/options';
import { CliError, UsageError } from '../errors/cli-error';
import { EXIT } from '../errors/exit-codes';
import { loadModel } from '../model/load-model';
import { renderRunReport, type RunContext } from '../output/render-run-report';
import { passProgressPrinter } from '../progress/pass-progress-printer';
import { readDreamingOptions } from '../runtime/open-reverie';
import { type Command, DREAMING_OPTIONS_OPTION, formatOption } from './command';

export const dreamRunCommand: Command = {
  group: 'dream',
  name: 'run',
  summary: 'Run a dream cycle now (all passes, one phase, or named passes)',
  description: [
    'Runs a dream cycle over the data directory now, after finishing any run a crash interrupted.',
    'The model comes from REVERIE_MODEL; without one, the passes that need a model are skipped',
    'and the others run. Progress goes to stderr, the report to stdout. Ctrl-C ends the cycle',
    'cleanly after the current step. Exits with 1 when a pass failed or the run was interrupted.',
  ].join('\n'),
  args: [],
  options: [
    {
      name: 'phase',
      type: 'string',
      value: 'P',
      choices: DREAM_PHASES,
      description: `Only the passes of one phase: ${DREAM_PHASES.join(', ')}`,
    },
    { name: 'pass', type: 'string', value: 'X', description: 'Only these passes (comma-separated names, e.g. memory-consolidation)' },
    { name: 'dry-run', type: 'boolean', description: 'Plan and report what would change; write nothing' },
    DREAMING_OPTIONS_OPTION,
    formatOption(),
  ],
  examples: [
    'reverie dream run',
    'reverie dream run --phase rem --dry-run',
    'REVERIE_MODEL=ollama:llama3.1 reverie dream run --pass episode-extraction --format json',
  ],
  async run(context) {
    const { options } = context;
    const phase = typeof options.phase === 'string' ? (options.phase as DreamPhase) : undefined;
    const passes =
      typeof options.pass === 'string'
        ? options.pass
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean)
        : undefined;
    if (phase && passes) throw new UsageError('use --phase or --pass, not both');
    if (passes?.length === 0) throw new UsageError('option --pass needs at least one pass name');

    const model = await loadModel(context.io.env);
    const dreaming = await readDreamingOptions(typeof options.options === 'string' ? resolve(context.io.cwd, options.options) : undefined);
    const reverie = await context.open('write', { model, dreaming });
    const recovered = await reverie.dreams.recover();
    for (const id of recovered) context.note(`Recovered dream run ${id}, which a crash had interrupted.`);

    const controller = new AbortController();
    let interrupts = 0;
    const onInterrupt = () => {
      interrupts++;
      if (interrupts > 1) process.exit(130);
      context.note('Stopping the dream cycle after the current step (Ctrl-C again to quit at once)…');
      controller.abort(new Error('interrupted from the command line (Ctrl-C)'));
    };
    process.on('SIGINT', onInterrupt);
    const progress = passProgressPrinter(context.io.stderr);
    let report;
    try {
      report = await reverie.dreams.run({
        ...(phase ? { phase } : {}),
        ...(passes ? { passes } : {}),
        dryRun: options['dry-run'] === true,
        signal: controller.signal,
        onPass: progress.onPass,
      });
    } finally {
      progress.stop();
      process.off('SIGINT', onInterrupt);
    }

    const plan = reverie.dreams.plan();
    const extras: RunContext = {
      model: model?.label,
      needsModel: report.passes
        .filter((pass) => pass.status === 'skipped' && pass.reason === 'needs a language model')
        .map((pass) => pass.name),
      withoutModel: model
        ? []
        : report.passes
            .filter((pass) => pass.status !== 'skipped')
            .flatMap((pass) => {
              const reason = plan.find((planned) => planned.name === pass.name && planned.status === 'would-run')?.reason;
              return reason ? [{ name: pass.name, reason }] : [];
            }),
      recovered,
    };
    if (options.format === 'json') context.printJson({ ...report, model: extras.model ?? null, needsModel: extras.needsModel, recovered });
    else context.print(renderRunReport(report, extras));

    const failed = report.passes.filter((pass) => pass.status === 'failed').map((pass) => pass.name);
    const details = report.dryRun ? '' : ` (see 'reverie dream show ${report.runId}')`;
    if (failed.length > 0) throw new CliError(`dream run ${report.runId}: ${failed.join(', ')} failed${details}`, EXIT.FAILED);
    if (report.interrupted) throw new CliError(`dream run ${report.runId} was interrupted: ${report.interrupted}`, EXIT.FAILED);
  },
};
