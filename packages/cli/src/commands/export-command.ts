import type { Command } from './command';

export const exportCommand: Command = {
  name: 'export',
  summary: 'Write the memory as a Reverie export (JSON Lines) to stdout',
  description: [
    'Writes every memory entry (with its validity and lineage), the tombstones forgets left and every',
    'skill as one versioned JSON Lines file on stdout (docs/export.md): reverie export > memory.jsonl.',
    "With --scope, that scope's memory. 'reverie import' reads it back, here or on another backend.",
  ].join('\n'),
  args: [],
  options: [],
  examples: ['reverie export > memory.jsonl', 'reverie --scope alice export > alice.jsonl'],
  async run(context) {
    const reverie = await context.open('read');
    for await (const line of reverie.export()) context.io.stdout.write(line);
  },
};
