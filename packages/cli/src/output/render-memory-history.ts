import type { MemoryHistory, MemoryHistoryStep } from '@reverie/core';

/** How a `written` step's entry came to be, in words: `tool save_memory (session chat-7)`. Pure. */
function originLabel(step: MemoryHistoryStep): string {
  if (step.origin === undefined) return 'unknown origin';
  const details = step.details ?? {};
  const parts = [
    details.tool,
    details.pass,
    details.sessionId === undefined ? undefined : `session ${details.sessionId}`,
    ...(details.turns ?? []).map(
      (turns) => `${turns.sessionId} turns ${turns.fromSeq === turns.toSeq ? `#${turns.fromSeq}` : `#${turns.fromSeq}–${turns.toSeq}`}`,
    ),
    details.source === undefined ? undefined : `from ${details.source}`,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? step.origin : `${step.origin} (${parts.join(', ')})`;
}

function stepLine(step: MemoryHistoryStep): string {
  const what =
    step.kind === 'written'
      ? `${step.id} written: ${originLabel(step)}`
      : `${step.id} ${step.kind === 'merged' ? 'merged into' : 'superseded by'} ${step.into}${step.origin === undefined ? '' : ` (was ${step.origin})`}`;
  const notes = [step.runId === undefined ? undefined : `run ${step.runId}`, step.stored ? undefined : 'no longer stored'].filter(
    (note) => note !== undefined,
  );
  return [`${step.at}  ${what}${notes.length === 0 ? '' : ` · ${notes.join(' · ')}`}`, `    "${step.excerpt}"`].join('\n');
}

/** `memory history` in text: one step per two lines, oldest first, then what was folded. Pure. */
export function renderMemoryHistory(history: MemoryHistory): string {
  const lines = [`History of ${history.id}, oldest first:`, ...history.steps.map(stepLine)];
  if (history.folded > 0) lines.push(`(${history.folded} older ancestor(s) folded: the lineage keeps the nearest 32)`);
  return lines.join('\n');
}
