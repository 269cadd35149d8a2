import { plural, singleLine } from '../output/single-line';
import { type Command, formatOption } from './command';

export const skillsListCommand: Command = {
  group: 'skills',
  name: 'list',
  summary: 'Every skill of the library, by name',
  description: 'Lists the skills of the library sorted by name, with their summaries.',
  args: [],
  options: [
    { name: 'prefix', type: 'string', value: 'P', description: 'Only skills named P or below it (mcp lists mcp/email…)' },
    formatOption(),
  ],
  examples: ['reverie skills list', 'reverie skills list --prefix mcp --format json'],
  async run(context) {
    const { options } = context;
    const reverie = await context.open('read');
    const skills = await reverie.skills!.list(typeof options.prefix === 'string' ? { prefix: options.prefix } : {});
    if (options.format === 'json') {
      context.printJson(skills);
      return;
    }
    if (skills.length === 0) {
      context.print('No skills.');
      return;
    }
    const width = Math.max(...skills.map((skill) => skill.name.length));
    context.print(
      [...skills.map((skill) => `${skill.name.padEnd(width)}  ${singleLine(skill.summary)}`), plural(skills.length, 'skill')].join('\n'),
    );
  },
};
