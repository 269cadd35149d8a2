import type { IClock } from '../interfaces/clock';
import type { IWorkflowLog, WorkflowLogReadOptions } from '../interfaces/workflow-log';
import { newId } from '../ids/new-id';
import { parseDraft } from '../schemas/parse-record';
import { type WorkflowExecution, type WorkflowExecutionDraft, workflowExecutionSchema } from '../schemas/workflow-execution';
import { validateRange } from '../stores/time-range';
import type { TimeInput } from '../schemas/common';
import { assertOpen, inTimeRange } from '../stores/write-condition';
import { selectWorkflowExecutions } from '../stores/record-selectors';
import { systemClock } from '../time/system-clock';
import type { InMemoryStoreOptions } from './in-memory-store-options';

/** The reference `IWorkflowLog`: execution records in an array. Nothing persists. */
export class InMemoryWorkflowLog implements IWorkflowLog {
  private records: WorkflowExecution[] = [];
  private readonly clock: IClock;
  private closed = false;

  constructor(options: InMemoryStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  async append(record: WorkflowExecutionDraft): Promise<WorkflowExecution> {
    assertOpen(this.closed, 'workflow log');
    const parsed = parseDraft(
      workflowExecutionSchema,
      { ...record, id: record?.id ?? newId(), timestamp: record?.timestamp ?? this.clock.now().toISOString() },
      'workflow execution',
    );
    this.records.push(parsed);
    return { ...parsed };
  }

  async read(options: WorkflowLogReadOptions = {}): Promise<WorkflowExecution[]> {
    assertOpen(this.closed, 'workflow log');
    return selectWorkflowExecutions(this.records, options);
  }

  async clear(options: { before?: TimeInput } = {}): Promise<number> {
    assertOpen(this.closed, 'workflow log');
    validateRange({ until: options.before });
    const before = this.records.length;
    this.records = this.records.filter(
      (record) => options.before !== undefined && !inTimeRange(record.timestamp, undefined, options.before),
    );
    return before - this.records.length;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
