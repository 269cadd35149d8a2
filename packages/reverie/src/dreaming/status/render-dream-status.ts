import type { DreamStatus, PassStatus, PhaseStatus } from './dream-status';
import type { DreamLockStatus } from '@reverie/dream-state';

export type DreamStatusFormat = 'text' | 'json' | 'markdown';

/** Renders a dream status for a terminal (`text`), a program (`json`) or a report (`markdown`). Pure. */
export function renderDreamStatus(status: DreamStatus, format: DreamStatusFormat = 'text'): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(status, null, 2)}\n`;
    case 'markdown':
      return renderMarkdown(status);
    case 'text':
      return renderText(status);
  }
}

function renderText(status: DreamStatus): string {
  const out = [`Dream status, last ${status.windowHours} h (since ${status.since})`];
  out.push(`Last run: ${status.lastRunAt ?? 'never'}; last successful run: ${status.lastSuccessfulRunAt ?? 'never'}`);
  if (status.lock) out.push(`Lock: ${describeLock(status.lock)}`);
  out.push('');
  const width = Math.max(...status.phases.map((phase) => phase.phase.length));
  for (const phase of status.phases) out.push(`${phase.phase.padEnd(width)}  ${describePhase(phase)}`);
  if (status.passes.length > 0) {
    out.push('', 'Last run of each pass:');
    for (const pass of status.passes) out.push(`  ${describePass(pass)}`);
  } else {
    out.push('', 'No dream runs recorded yet.');
  }
  if (status.invalidLines > 0) out.push('', `${status.invalidLines} invalid ledger line(s) skipped.`);
  return `${out.join('\n')}\n`;
}

function renderMarkdown(status: DreamStatus): string {
  const out = [`## Dream status: last ${status.windowHours} h`, ''];
  out.push(`- Window: since ${status.since}`);
  out.push(`- Last run: ${status.lastRunAt ?? 'never'}`);
  out.push(`- Last successful run: ${status.lastSuccessfulRunAt ?? 'never'}`);
  if (status.lock) out.push(`- Lock: ${describeLock(status.lock)}`);
  if (status.invalidLines > 0) out.push(`- Invalid ledger lines skipped: ${status.invalidLines}`);
  out.push(
    '',
    '| phase | runs | ok | warnings | failed | skipped | items | applied | refused | misbehaviour | tokens in | tokens out | last ok |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const p of status.phases) {
    out.push(
      `| ${p.phase} | ${p.runs} | ${p.ok} | ${p.warnings} | ${p.failed} | ${p.skipped} | ${p.itemsProcessed} | ${p.applied} | ${p.refusals} | ${p.misbehaviour} | ${p.tokens.input} | ${p.tokens.output} | ${p.lastSuccessAt ?? '—'} |`,
    );
  }
  out.push('', '### Last run of each pass', '');
  if (status.passes.length === 0) {
    out.push('No dream runs recorded yet.');
  } else {
    out.push('| pass | phase | status | ended | trigger | items | applied | note |', '| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const { pass, phase, lastRun } of status.passes) {
      const note = [lastRun.error ?? lastRun.warning ?? lastRun.notes[0] ?? '', retriesNote(lastRun)].filter(Boolean).join('; ');
      out.push(
        `| ${pass} | ${phase} | ${lastRun.status} | ${lastRun.completedAt} | ${lastRun.trigger} | ${lastRun.itemsProcessed} | ${lastRun.applied} | ${escapeCell(note)} |`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}

function describePhase(phase: PhaseStatus): string {
  return [
    `${phase.runs} run(s)`,
    `ok ${phase.ok}`,
    ...(phase.warnings > 0 ? [`warnings ${phase.warnings}`] : []),
    `failed ${phase.failed}`,
    `skipped ${phase.skipped}`,
    `items ${phase.itemsProcessed}`,
    `applied ${phase.applied}`,
    ...(phase.refusals > 0 ? [`refused ${phase.refusals}`] : []),
    ...(phase.misbehaviour > 0 ? [`misbehaviour ${phase.misbehaviour}`] : []),
    `tokens ${phase.tokens.input} in / ${phase.tokens.output} out`,
    `last ok ${phase.lastSuccessAt ?? 'never'}`,
  ].join(', ');
}

function describePass({ pass, phase, lastRun }: PassStatus): string {
  const head = `${pass} (${phase}): ${lastRun.status} at ${lastRun.completedAt}, trigger ${lastRun.trigger}`;
  if (lastRun.status === 'skipped') return `${head}; ${lastRun.notes[0] ?? 'skipped'}`;
  const facts = [
    `items ${lastRun.itemsProcessed}, applied ${lastRun.applied}`,
    ...(lastRun.refusals ? [`refused ${lastRun.refusals}`] : []),
    ...(lastRun.misbehaviour ? [`misbehaviour ${lastRun.misbehaviour}`] : []),
    `${lastRun.durationMs} ms`,
    ...(retriesNote(lastRun) ? [retriesNote(lastRun)] : []),
  ].join(', ');
  if (lastRun.error) return `${head}; ${facts}; error: ${lastRun.error}`;
  return lastRun.warning ? `${head}; ${facts}; warning: ${lastRun.warning}` : `${head}; ${facts}`;
}

function retriesNote(line: PassStatus['lastRun']): string {
  return line.pendingRetries ? `${line.pendingRetries} refused merge(s) pending a retry` : '';
}

function describeLock(lock: DreamLockStatus): string {
  if (lock.status === 'free') return 'free';
  const { holder } = lock;
  const run = holder.runId ? `, run ${holder.runId}` : '';
  const stale = lock.stale ? ` (stale: ${lock.staleReason ?? 'may be taken over'})` : '';
  return `held by pid ${holder.pid} on ${holder.host} since ${holder.acquiredAt}${run}${stale}`;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
