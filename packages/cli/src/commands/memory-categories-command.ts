import { renderCategories } from '../output/render-memory';
import { type Command, formatOption } from './command';

export const memoryCategoriesCommand: Command = {
  group: 'memory',
  name: 'categories',
  summary: 'Categories in use, with their entry counts',
  description: 'Lists each category of long-term memory in use with its number of entries.',
  args: [],
  options: [formatOption()],
  examples: ['reverie memory categories'],
  async run(context) {
    const reverie = await context.open('read');
    const categories = await reverie.memory!.listCategories();
    if (context.options.format === 'json') context.printJson(categories);
    else context.print(renderCategories(categories));
  },
};
