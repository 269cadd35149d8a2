import type { PassOutcome } from '@reverie/dream';
import { plural } from './single-line';

/** `850 ms`, `12.3 s`, `4 min 05 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** What a pass did, in a few words: `ok — 12 items, 3 applied, 1 conflict (1.2 s)`. Pure. */
export function describeOutcome(outcome: PassOutcome): string {
  if (outcome.status === 'skipped') return `skipped — ${outcome.reason}`;
  const facts = [plural(outcome.itemsProcessed, 'item')];
  if (outcome.planned !== undefined) facts.push(`${plural(outcome.planned.length, 'operation')} planned`);
  else facts.push(`${outcome.applied} applied`);
  if (outcome.conflicts > 0) facts.push(plural(outcome.conflicts, 'conflict'));
  if (outcome.refusals.length > 0) facts.push(`${outcome.refusals.length} refused`);
  if (outcome.tokens.input + outcome.tokens.output > 0) facts.push(`${outcome.tokens.input}/${outcome.tokens.output} tokens`);
  const error =
    outcome.status === 'failed' && outcome.error
      ? `: ${outcome.error}`
      : outcome.status === 'warning' && outcome.warning
        ? `: ${outcome.warning}`
        : '';
  return `${outcome.status}${error} — ${facts.join(', ')} (${formatDuration(outcome.durationMs)})`;
}
