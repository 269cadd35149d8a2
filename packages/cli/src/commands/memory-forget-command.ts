import { selectorFrom } from 'reverie';
import { type Command, formatOption } from './command';

export const memoryForgetCommand: Command = {
  group: 'memory',
  name: 'forget',
  summary: 'Forget entries by id, by words they hold, or by subject (undoable, or --erase every copy)',
  description: [
    "Takes entries out of long-term memory at the user's request (SPEC B14), soft: they leave recall at once,",
    "in one dream run that 'reverie dream undo RUN' reverses, and the dream cycle and fact extraction do not",
    'learn them again from the conversation. Give ids, or --text (every entry whose content holds these words,',
    'any letter case), or --subject (every entry holding each word of a name or phrase, in any form).',
    'Prints the receipt: what was forgotten (ids, categories), ids not found, entries that changed meanwhile.',
    'With --erase, every copy of their text goes instead (run archives and artifacts, logs, lineage excerpts,',
    'snapshots, rows on PostgreSQL) and only a tombstone of keyed hashes is left: it cannot be undone, and undo',
    'of a run whose records held the text is refused. Prints where the text was found and what was done there.',
  ].join('\n'),
  args: [{ name: 'ids', required: false, rest: true, description: 'The ids of the entries to forget' }],
  options: [
    { name: 'text', type: 'string', value: 'WORDS', description: 'Forget every entry whose content holds WORDS' },
    { name: 'subject', type: 'string', value: 'PHRASE', description: 'Forget every entry about PHRASE' },
    { name: 'erase', type: 'boolean', description: 'Erase every copy of their text (not undoable)' },
    formatOption(),
  ],
  examples: [
    'reverie memory forget 3f9c2a7b1d04 9a1b2c3d4e5f',
    'reverie memory forget --text "divorce"',
    'reverie memory forget --subject "Alice Smith" --format json',
    'reverie memory forget --erase --text "Zephyrine"',
  ],
  async run(context) {
    const { options } = context;
    const ids = context.args.ids?.split(/\s+/).filter((id) => id !== '');
    const selector = selectorFrom(
      {
        ids: ids && ids.length > 0 ? ids : undefined,
        text: typeof options.text === 'string' ? options.text : undefined,
        subject: typeof options.subject === 'string' ? options.subject : undefined,
      },
      "'reverie memory forget'",
    );
    const reverie = await context.open('write');
    if (options.erase === true) {
      const erased = await reverie.memory!.forget(selector, { mode: 'erase' });
      if (options.format === 'json') return context.printJson(erased);
      context.print(
        [
          erased.forgotten.length === 0
            ? `Nothing to erase: no entry of the ${erased.checked} checked matched.`
            : `Erased ${erased.forgotten.length} entr${erased.forgotten.length === 1 ? 'y' : 'ies'}; a tombstone of keyed hashes (${erased.tombstone}) is left.`,
          ...erased.forgotten.map((entry) => `  ${entry.id}  ${entry.category}`),
          ...erased.places.map((place) => `  ${place.action} ${place.place}${place.records === undefined ? '' : ` (${place.records})`}`),
          ...(erased.rewritten.length > 0 ? [`Lineage rewritten: ${erased.rewritten.join(', ')}`] : []),
          ...(erased.runsNoLongerUndoable.length > 0 ? [`Runs no longer undoable: ${erased.runsNoLongerUndoable.join(', ')}`] : []),
          ...(erased.notFound.length > 0 ? [`Not found: ${erased.notFound.join(', ')}`] : []),
          `Checked ${erased.checkedPlaces.entries} entries, ${erased.checkedPlaces.files} files, ${erased.checkedPlaces.tables} tables.`,
        ].join('\n'),
      );
      return;
    }
    const receipt = await reverie.memory!.forget(selector);
    if (options.format === 'json') {
      context.printJson(receipt);
      return;
    }
    const lines = [
      receipt.runId === undefined
        ? `Nothing to forget: no entry of the ${receipt.checked} checked matched.`
        : `Forgot ${receipt.forgotten.length} entr${receipt.forgotten.length === 1 ? 'y' : 'ies'} in run ${receipt.runId} (undo: reverie dream undo ${receipt.runId}).`,
      ...receipt.forgotten.map((entry) => `  ${entry.id}  ${entry.category}`),
      ...(receipt.notFound.length > 0 ? [`Not found: ${receipt.notFound.join(', ')}`] : []),
      ...(receipt.changed.length > 0 ? [`Changed meanwhile, kept (forget them again): ${receipt.changed.join(', ')}`] : []),
    ];
    context.print(lines.join('\n'));
  },
};
