import { renderUndoReport } from '../output/render-undo-report';
import { type Command, formatOption } from './command';

export const dreamUndoCommand: Command = {
  group: 'dream',
  name: 'undo',
  summary: 'Reverse a dream run',
  description: [
    'Reverses a dream run: restores what it deleted or replaced and removes what it created,',
    'except records changed since the run (the newer change wins; they are listed as kept).',
    'Exits with 4 when there is no run with that id.',
  ].join('\n'),
  args: [{ name: 'runId', required: true, description: "The run's id (printed by dream run; folders in _system/dreams/runs/)" }],
  options: [formatOption()],
  examples: ['reverie dream undo 3f9c2a7b1d04'],
  async run(context) {
    const reverie = await context.open('write');
    // A run a crash interrupted is finished first, so undo works from a complete journal.
    await reverie.dreams.recover();
    const report = await reverie.dreams.undo(context.args.runId!);
    if (context.options.format === 'json') context.printJson(report);
    else context.print(renderUndoReport(report));
  },
};
