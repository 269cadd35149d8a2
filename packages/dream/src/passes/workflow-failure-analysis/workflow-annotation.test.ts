import { describe, expect, it } from 'vitest';
import type { WorkflowExecution } from '@reverie/core';
import { groupWorkflowRuns } from './group-workflow-runs';
import { annotationHeading, appendAnnotations, cleanNote, factualNote, renderAnnotation } from './workflow-annotation';

function failure(day: string, failedStep: string, error: string): WorkflowExecution {
  return {
    id: `00000000000${day.slice(-1)}`,
    description: 'Sync the\ncalendar [durable]',
    skill: 'calendar/sync',
    success: false,
    failedStep,
    error,
    timestamp: `2026-06-${day}T10:00:00.000Z`,
  };
}

describe('workflow annotations (SPEC D12)', () => {
  const [group] = groupWorkflowRuns([
    failure('01', 'fetch events', 'HTTP 401: token expired'),
    failure('03', 'fetch events', 'HTTP 401: token expired'),
    failure('05', 'write ics', 'EACCES\n/tmp/cal.ics'),
    { id: '00000000000a', description: 'sync the  calendar [durable]', success: true, timestamp: '2026-06-06T10:00:00.000Z' },
  ]);

  it('writes a factual note from the records: counts, failed steps, most common error', () => {
    expect(factualNote(group!, 14)).toBe(
      [
        '3 of 4 run(s) failed between 2026-06-01 and 2026-06-05 (last 14 days).',
        'Failed step(s): "fetch events" (2×), "write ics" (1×).',
        'Most common error (2×): "HTTP 401: token expired"',
      ].join('\n'),
    );
  });

  it('puts the description on one heading line without retention tags', () => {
    expect(annotationHeading('2026-06-07', 'Sync the\ncalendar [durable]')).toBe('## Known failure (2026-06-07): Sync the calendar');
    expect(annotationHeading('2026-06-07', 'x'.repeat(400))).toHaveLength('## Known failure (2026-06-07): '.length + 160);
    expect(renderAnnotation('2026-06-07', 'Sync', 'body\n')).toBe('## Known failure (2026-06-07): Sync\n\nbody\n');
  });

  it('cleans a model note: no retention tags, no headings of its own, bounded', () => {
    expect(cleanNote('# Fix\nRefresh the token first [durable].\n\n\n\n## Then\nretry [ephemeral]', 1200)).toEqual({
      text: 'Fix\nRefresh the token first.\n\nThen\nretry',
      cut: false,
    });
    expect(cleanNote('  [skip] ', 1200)).toEqual({ text: '', cut: false });
    const long = cleanNote('word '.repeat(100), 200);
    expect(long.cut).toBe(true);
    expect(long.text.length).toBeLessThanOrEqual(200);
    expect(long.text.endsWith('…')).toBe(true);
  });

  it('appends blocks after the skill content, separated by a blank line', () => {
    expect(appendAnnotations('# Steps\n1. Do it\n\n', ['## A\n\nx\n', '## B\n\ny\n'])).toBe(
      '# Steps\n1. Do it\n\n## A\n\nx\n\n## B\n\ny\n',
    );
    expect(appendAnnotations('', ['## A\n\nx\n'])).toBe('## A\n\nx\n');
  });
});
