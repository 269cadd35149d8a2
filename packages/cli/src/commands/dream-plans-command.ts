import type { PlanSummary } from 'reverie';
import { resolve } from 'node:path';
import { readDreamingOptions } from '../runtime/open-reverie';
import { type Command, DREAMING_OPTIONS_OPTION, formatOption } from './command';

export const dreamPlansCommand: Command = {
  group: 'dream',
  name: 'plans',
  summary: 'List the plans dry runs saved that are not applied yet',
  description: [
    'Lists the plans saved by dry runs and not applied yet, newest first: id, when made, whether',
    'it expired (planMaxAge, default 24h, from --options), and the operations of each pass. Each',
    "plan's folder holds plan.json (exactly what reverie dream apply would do) and summary.md.",
  ].join('\n'),
  args: [],
  options: [DREAMING_OPTIONS_OPTION, formatOption()],
  examples: ['reverie dream plans', 'reverie dream plans --format json'],
  async run(context) {
    const { options } = context;
    const dreaming = await readDreamingOptions(typeof options.options === 'string' ? resolve(context.io.cwd, options.options) : undefined);
    const reverie = await context.open('read', { dreaming });
    const plans = await reverie.dreams.plans();
    if (options.format === 'json') context.printJson(plans);
    else context.print(renderPlans(plans));
  },
};

/** One block per plan: id, age, the passes that would change something. Pure. */
export function renderPlans(plans: readonly PlanSummary[]): string {
  if (plans.length === 0) return "No pending dream plan. Make one with 'reverie dream run --dry-run'.";
  const lines: string[] = [];
  for (const plan of plans) {
    const state = plan.expired ? `expired at ${plan.expiresAt}` : `apply before ${plan.expiresAt}`;
    lines.push(`Plan ${plan.planId} — made ${plan.createdAt} (${plan.trigger}), ${plan.operations} operation(s), ${state}`);
    for (const pass of plan.passes) {
      if (pass.status === 'planned' && pass.operations === 0) continue;
      lines.push(`  ${pass.name}: ${pass.status === 'planned' ? `${pass.operations} operation(s)` : pass.status}`);
    }
    const apply = plan.expired ? '' : `apply with: reverie dream apply ${plan.planId}`;
    if (plan.planFolder !== undefined) lines.push(`  ${plan.planFolder}/summary.md${apply === '' ? '' : `; ${apply}`}`);
    else if (apply !== '') lines.push(`  ${apply}`);
  }
  return lines.join('\n');
}
