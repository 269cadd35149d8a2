import type { UndoReport } from '@reverie/dream';

/** `dream undo` in text: the counts, then each record and what happened to it. Pure. */
export function renderUndoReport(report: UndoReport): string {
  const lines = [
    `Undid dream run ${report.runId}: ${report.restored.length} restored, ${report.removed.length} removed, ${report.kept.length} kept.`,
    ...report.restored.map((record) => `  restored ${record}`),
    ...report.removed.map((record) => `  removed  ${record}`),
    ...report.kept.map((kept) => `  kept     ${kept.record} — ${kept.reason}`),
  ];
  return lines.join('\n');
}
