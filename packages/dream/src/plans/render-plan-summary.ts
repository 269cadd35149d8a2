import { operationTarget } from '../engine/operation-applier';
import type { DreamOperation, SavedPlan } from '@reverie/dream-state';

/**
 * The markdown a saved plan's folder holds beside `plan.json` (`summary.md`): for a person deciding
 * whether to apply it, every operation with its record and the pass's reason. Pure.
 */
export function renderPlanSummary(plan: SavedPlan): string {
  const lines = [
    `# Dream plan ${plan.planId}`,
    '',
    `- made: ${plan.createdAt} (dry run, trigger ${plan.trigger})`,
    ...(plan.interrupted ? [`- interrupted: ${plan.interrupted} (later passes are not in the plan)`] : []),
    `- apply: \`reverie dream apply ${plan.planId}\` or \`reverie.dreams.apply('${plan.planId}')\``,
  ];
  for (const pass of plan.passes) {
    lines.push('', `## ${pass.name} (${pass.phase})`, '');
    if (pass.status === 'skipped') {
      lines.push(`Skipped: ${pass.reason}`);
      continue;
    }
    if (pass.status === 'failed') {
      lines.push(`Failed while planning: ${pass.error}`);
      continue;
    }
    if (pass.failure !== undefined) lines.push(`Failed (its clean-up is still applied): ${pass.failure}`, '');
    for (const note of pass.notes) lines.push(`- ${note}`);
    for (const refusal of pass.refusals) lines.push(`- refused: ${refusal}`);
    for (const reply of pass.misbehaviour ?? []) lines.push(`- misbehaviour: ${reply}`);
    lines.push('', pass.operations.length === 0 ? 'No operation.' : `${pass.operations.length} operation(s):`);
    if (pass.operations.length > 0) lines.push('');
    for (const operation of pass.operations)
      lines.push(`- \`${operation.op}\` ${operationTarget(operation)}${proposed(operation)}: ${operation.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

/** What a save would write, quoted and shortened; nothing for other operations. */
function proposed(operation: DreamOperation): string {
  const text =
    operation.op === 'memory.save'
      ? `${operation.entry.category}: ${operation.entry.content}`
      : operation.op === 'skill.save'
        ? operation.skill.summary
        : undefined;
  if (text === undefined) return '';
  const line = text.replace(/\s+/g, ' ').trim();
  return ` → "${line.length > 160 ? `${line.slice(0, 159)}…` : line}"`;
}
