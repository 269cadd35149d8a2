import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { text } from 'node:stream/consumers';
import { IMPORT_FORMATS, type ImportReport } from 'reverie';
import { UsageError } from '../errors/cli-error';
import { type Command, formatOption } from './command';

/** The file's text; a file that cannot be read is a usage error naming it. */
async function readImportFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the file to import ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** The report in a few lines for people. */
function renderImportReport(report: ImportReport): string {
  const { memories, skills, tombstones } = report;
  return [
    `${report.dryRun ? 'Would import' : 'Imported'} (${report.format}): memories ${memories.created} new, ${memories.replaced} replaced, ${memories.merged} merged, ${memories.skipped} kept as they were` +
      (memories.refusedForgotten > 0
        ? `, ${memories.refusedForgotten} refused (the user had them forgotten; --allow-forgotten imports them)`
        : '') +
      `; skills ${skills.created} new, ${skills.replaced} replaced, ${skills.skipped} kept; tombstones ${tombstones.created} new, ${tombstones.skipped} kept.`,
    ...(report.runId === undefined ? [] : [`Run ${report.runId} (undo: reverie dream undo ${report.runId}).`]),
    ...(report.vectors > 0 ? [`${report.vectors} vector(s) read and not stored: the entries are embedded again here.`] : []),
    ...(report.conflicts > 0 ? [`${report.conflicts} record(s) changed during the import and were left as they are.`] : []),
  ].join('\n');
}

export const importCommand: Command = {
  name: 'import',
  summary: 'Import a Reverie export, a Markdown memory file, a mem0 memory list or a Letta agent file',
  description: [
    "Reads FILE (- for stdin) whole, then imports it as one dream run that 'reverie dream undo RUN' reverses",
    '(docs/export.md). The format is told by the file name (.jsonl, .md, .af) and content unless --from says.',
    'A file with any problem (a line that does not parse, an unknown version, a record that fails validation,',
    'a category outside the tree) is refused with each problem by line, and nothing is written.',
    'An entry or skill that exists is kept (--on-conflict skip, the default), replaced, or merged.',
  ].join('\n'),
  args: [{ name: 'file', required: true, description: 'The file to import, or - for stdin' }],
  options: [
    { name: 'dry-run', type: 'boolean', description: 'Read and plan, write nothing' },
    {
      name: 'on-conflict',
      type: 'string',
      value: 'skip|replace|merge',
      choices: ['skip', 'replace', 'merge'],
      description: 'What to do with an entry or skill that exists (default skip)',
    },
    {
      name: 'from',
      type: 'string',
      value: ['auto', ...IMPORT_FORMATS].join('|'),
      choices: ['auto', ...IMPORT_FORMATS],
      description: "The file's format (default auto: by its name and content)",
    },
    { name: 'allow-forgotten', type: 'boolean', description: 'Import entries that state a fact the user had forgotten' },
    formatOption(),
  ],
  examples: [
    'reverie import memory.jsonl --dry-run',
    'reverie import MEMORY.md',
    'reverie import mem0.json --from mem0 --on-conflict merge',
  ],
  async run(context) {
    const { options } = context;
    const file = context.args.file!;
    const content = file === '-' ? await text(context.io.stdin) : await readImportFile(resolve(context.io.cwd, file));
    const reverie = await context.open('write');
    const report = await reverie.import(content, {
      source: file === '-' ? 'stdin' : basename(file),
      ...(typeof options.from === 'string' ? { format: options.from as (typeof IMPORT_FORMATS)[number] | 'auto' } : {}),
      ...(typeof options['on-conflict'] === 'string' ? { onConflict: options['on-conflict'] as 'skip' | 'replace' | 'merge' } : {}),
      dryRun: options['dry-run'] === true,
      allowForgotten: options['allow-forgotten'] === true,
      onProgress: ({ phase, done, total }) => {
        if (total >= 1000) context.note(`${phase === 'plan' ? 'read' : 'applied'} ${done} of ${total}`);
      },
    });
    if (options.format === 'json') context.printJson(report);
    else context.print(renderImportReport(report));
  },
};
