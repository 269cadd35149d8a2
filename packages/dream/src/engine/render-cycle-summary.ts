import type { CycleReport } from './dream-types';

/** The markdown summary a run leaves in its folder (SPEC O7). Pure. */
export function renderCycleSummary(report: CycleReport): string {
  const lines = [
    `# Dream run ${report.runId}`,
    '',
    `- trigger: ${report.trigger}`,
    `- started: ${report.startedAt}`,
    `- completed: ${report.completedAt}`,
    ...(report.interrupted ? [`- interrupted: ${report.interrupted}`] : []),
    '',
    '| pass | phase | status | items | applied | conflicts | tokens in/out | notes |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const pass of report.passes) {
    if (pass.status === 'skipped') {
      lines.push(`| ${pass.name} | ${pass.phase} | skipped | | | | | ${pass.reason} |`);
      continue;
    }
    const notes = [
      ...(pass.warning ? [`warning: ${pass.warning}`] : []),
      ...pass.notes,
      ...(pass.misbehaviour ?? []).map((reply) => `misbehaviour: ${reply}`),
      ...pass.refusals.map((refusal) => `refused: ${refusal}`),
      ...(pass.error ? [`error: ${pass.error}`] : []),
    ];
    lines.push(
      `| ${pass.name} | ${pass.phase} | ${pass.status} | ${pass.itemsProcessed} | ${pass.applied} | ${pass.conflicts} | ${pass.tokens.input}/${pass.tokens.output} | ${notes.join('; ').replace(/\|/g, '\\|')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
