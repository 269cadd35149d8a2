import type { CycleReport } from '@reverie/dream';
import { describeOutcome, formatDuration } from './describe-outcome';
import type { DreamOperation } from '@reverie/dream-state';

/** What the CLI adds to a cycle report: which model ran, and what went without one. */
export interface RunContext {
  /** The model spec in use, or undefined when REVERIE_MODEL is not set. */
  model: string | undefined;
  /** Passes skipped because no model is configured. */
  needsModel: string[];
  /** Passes that ran doing less without a model, with what they left out. */
  withoutModel: Array<{ name: string; reason: string }>;
  /** Interrupted runs finished before this one. */
  recovered: string[];
}

const MAX_PLANNED_SHOWN = 20;

function describeOperation(operation: DreamOperation): string {
  switch (operation.op) {
    case 'memory.save':
      return `save memory ${operation.entry.id} (${operation.entry.category}): ${operation.reason}`;
    case 'memory.delete':
      return `delete memory ${operation.id}: ${operation.reason}`;
    case 'skill.save':
      return `save skill ${operation.skill.name}: ${operation.reason}`;
    case 'skill.delete':
      return `delete skill ${operation.name}: ${operation.reason}`;
    case 'conversation-log.clear':
      return `clear the conversation log through seq ${operation.throughSeq}: ${operation.reason}`;
  }
}

/** The hint printed when passes were skipped for want of a model. */
export function modelHint(needsModel: readonly string[]): string {
  return (
    `${needsModel.join(', ')} ${needsModel.length === 1 ? 'needs' : 'need'} a model and ${needsModel.length === 1 ? 'was' : 'were'} skipped. ` +
    `Set REVERIE_MODEL to run ${needsModel.length === 1 ? 'it' : 'them'}, e.g. ` +
    'REVERIE_MODEL=openai:gpt-4.1-mini (with OPENAI_API_KEY), ' +
    'anthropic:<model> (with ANTHROPIC_API_KEY), ollama:<model>, or <base-url>#<model> for any OpenAI-compatible endpoint.'
  );
}

/** `dream run` in text: one block per pass with its notes and refusals, then what to do next. Pure. */
export function renderRunReport(report: CycleReport, context: RunContext): string {
  const elapsed = Date.parse(report.completedAt) - Date.parse(report.startedAt);
  const lines = [
    `Dream run ${report.runId}${report.dryRun ? ' (dry run: no store was changed)' : ''} — ${report.trigger}, ${formatDuration(elapsed)}, model: ${context.model ?? 'none'}`,
  ];
  for (const id of context.recovered) lines.push(`Recovered interrupted run ${id} first.`);
  const width = Math.max(0, ...report.passes.map((pass) => pass.name.length));
  for (const pass of report.passes) {
    lines.push(`  ${pass.name.padEnd(width)}  ${describeOutcome(pass)}`);
    if (pass.status === 'skipped') continue;
    for (const note of pass.notes) lines.push(`      note: ${note}`);
    for (const refusal of pass.refusals) lines.push(`      refused: ${refusal}`);
    for (const target of pass.conflicted ?? []) lines.push(`      conflict: ${target} changed since it was read; left as it is`);
    const planned = pass.planned ?? [];
    for (const operation of planned.slice(0, MAX_PLANNED_SHOWN)) lines.push(`      would ${describeOperation(operation)}`);
    if (planned.length > MAX_PLANNED_SHOWN)
      lines.push(`      … and ${planned.length - MAX_PLANNED_SHOWN} more (--format json lists them all)`);
  }
  if (report.passes.length === 0) lines.push('  No pass matched.');
  if (report.interrupted) lines.push(`Interrupted: ${report.interrupted}`);
  for (const pass of context.withoutModel)
    lines.push(`${pass.name} ran without a model: ${pass.reason.replace(/^without a model:\s*/, '')}.`);
  if (context.needsModel.length > 0) lines.push(modelHint(context.needsModel));
  if (report.dryRun && report.planId) {
    lines.push(
      `Plan saved: ${report.planId} (${report.planFolder ?? 'see reverie dream plans'}). Apply exactly this plan with: reverie dream apply ${report.planId}`,
    );
  }
  if (!report.dryRun && report.planId) lines.push(`Applied plan ${report.planId}.`);
  if (report.runFolder) lines.push(`Run folder: ${report.runFolder}`);
  if (report.passes.some((pass) => pass.status !== 'skipped' && pass.applied > 0))
    lines.push(`Undo with: reverie dream undo ${report.runId}`);
  return lines.join('\n');
}
