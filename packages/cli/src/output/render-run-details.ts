import type { RunDetails } from '../runs/read-run-details';
import { describeOutcome } from './describe-outcome';

/** `dream show` in text: the manifest, what each pass did, the journal and the artifacts. Pure. */
export function renderRunDetails(details: RunDetails): string {
  const { manifest, report } = details;
  const lines = [
    `Dream run ${manifest.runId} — ${manifest.status}`,
    `  trigger:   ${manifest.trigger}`,
    `  started:   ${manifest.startedAt}`,
    ...(manifest.completedAt ? [`  completed: ${manifest.completedAt}`] : []),
    ...(manifest.undoneAt ? [`  undone:    ${manifest.undoneAt}`] : []),
    ...(manifest.applying ? [`  applying:  ${manifest.applying} (not finished; 'reverie dream run' recovers it first)`] : []),
    ...(report?.interrupted ? [`  interrupted: ${report.interrupted}`] : []),
    `  journal:   ${details.journal.applied} applied, ${details.journal.conflict} conflicts, ${details.journal.noop} with nothing to do`,
    ...(details.folder === undefined ? [] : [`  folder:    ${details.folder}`]),
  ];
  if (report) {
    lines.push('', 'Passes:');
    const width = Math.max(0, ...report.passes.map((pass) => pass.name.length));
    for (const pass of report.passes) {
      lines.push(`  ${pass.name.padEnd(width)}  ${describeOutcome(pass)}`);
      if (pass.status === 'skipped') continue;
      for (const note of pass.notes) lines.push(`      note: ${note}`);
      for (const refusal of pass.refusals) lines.push(`      refused: ${refusal}`);
    }
  } else if (manifest.passes.length > 0) {
    lines.push('', `Passes planned before the run stopped: ${manifest.passes.join(', ')}`);
  }
  lines.push('', `Artifacts: ${details.artifacts.join(', ')}`);
  return lines.join('\n');
}
