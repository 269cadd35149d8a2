import type { TimeInput } from '../schemas/common';
import type { WorkflowExecution, WorkflowExecutionDraft } from '../schemas/workflow-execution';

export interface WorkflowLogReadOptions {
  since?: TimeInput;
  until?: TimeInput;
  description?: string;
  skill?: string;
}

/** SPEC D12: workflow execution records, oldest first. */
export interface IWorkflowLog {
  append(record: WorkflowExecutionDraft): Promise<WorkflowExecution>;
  read(options?: WorkflowLogReadOptions): Promise<WorkflowExecution[]>;
  /** Removes records older than `before` (all when omitted); returns how many were removed. */
  clear(options?: { before?: TimeInput }): Promise<number>;
  close(): Promise<void>;
}
