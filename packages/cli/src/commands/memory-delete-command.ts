import { CliError } from '../errors/cli-error';
import { EXIT } from '../errors/exit-codes';
import { type Command, formatOption } from './command';

export const memoryDeleteCommand: Command = {
  group: 'memory',
  name: 'delete',
  summary: 'Delete a long-term memory entry by id',
  description: 'Deletes one entry of long-term memory. Exits with 4 when there is no entry with that id.',
  args: [{ name: 'id', required: true, description: "The entry's id (see memory list or memory search)" }],
  options: [formatOption()],
  examples: ['reverie memory delete 3f9c2a7b1d04'],
  async run(context) {
    const id = context.args.id!;
    const reverie = await context.open('write');
    if (!(await reverie.memory!.delete(id))) {
      throw new CliError(
        `no memory ${id} in ${context.where}: find ids with 'reverie memory list' or 'reverie memory search'`,
        EXIT.NOT_FOUND,
      );
    }
    if (context.options.format === 'json') context.printJson({ id, deleted: true });
    else context.print(`Deleted ${id}.`);
  },
};
