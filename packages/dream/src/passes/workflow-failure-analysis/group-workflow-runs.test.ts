import { describe, expect, it } from 'vitest';
import type { WorkflowExecution } from '@reverie/core';
import { groupWorkflowRuns, workflowKey } from './group-workflow-runs';

let n = 0;
function run(description: string, success: boolean, extra: Partial<WorkflowExecution> = {}): WorkflowExecution {
  n += 1;
  return {
    id: n.toString(16).padStart(12, '0'),
    description,
    success,
    timestamp: `2026-06-${String(n).padStart(2, '0')}T10:00:00.000Z`,
    ...extra,
  };
}

describe('groupWorkflowRuns (SPEC D12)', () => {
  it('groups by description (case and spacing aside) and counts runs, failures, steps, errors and skills', () => {
    const records = [
      run('Send the weekly report', false, { skill: 'reports/weekly', failedStep: 'attach pdf', error: 'ENOENT: report.pdf' }),
      run('send the  weekly report ', true, { skill: 'reports/weekly' }),
      run('Book a meeting room', true, { skill: 'calendar/rooms' }),
      run('Send the weekly report', false, { skill: 'reports/weekly', failedStep: 'attach pdf', error: 'ENOENT: report.pdf' }),
      run('Send the weekly report', false, { skill: 'reports/legacy', failedStep: 'send mail', error: 'SMTP 550' }),
      run('Send the Weekly Report', true),
    ];
    const [report, rooms] = groupWorkflowRuns(records);
    expect(report).toEqual({
      key: 'send the weekly report',
      description: 'Send the Weekly Report',
      runs: 5,
      successes: 2,
      failures: 3,
      successRate: 0.4,
      failedSteps: [
        { text: 'attach pdf', count: 2 },
        { text: 'send mail', count: 1 },
      ],
      errors: [
        { text: 'ENOENT: report.pdf', count: 2 },
        { text: 'SMTP 550', count: 1 },
      ],
      failingSkills: [
        { text: 'reports/weekly', count: 2 },
        { text: 'reports/legacy', count: 1 },
      ],
      succeedingSkills: [{ text: 'reports/weekly', count: 1 }],
      failureTimes: [records[0]!.timestamp, records[3]!.timestamp, records[4]!.timestamp],
      firstRunAt: records[0]!.timestamp,
      lastRunAt: records[5]!.timestamp,
    });
    expect(rooms).toMatchObject({
      key: 'book a meeting room',
      runs: 1,
      failures: 0,
      successRate: 1,
      failedSteps: [],
      errors: [],
      failingSkills: [],
    });
  });

  it('puts the groups with most failures first and orders runs by time, whatever the input order', () => {
    const late = run('B', false, { timestamp: '2026-06-20T00:00:00.000Z' });
    const early = run('B', false, { timestamp: '2026-06-01T00:00:00+02:00' });
    const groups = groupWorkflowRuns([run('A', false), late, early]);
    expect(groups.map((group) => group.key)).toEqual(['b', 'a']);
    expect(groups[0]!.failureTimes).toEqual([early.timestamp, late.timestamp]);
    expect(groupWorkflowRuns([])).toEqual([]);
    expect(workflowKey('  Deploy\tthe   APP ')).toBe('deploy the app');
  });
});
