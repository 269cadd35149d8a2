import type { WorkflowExecution, WorkflowExecutionDraft } from '../schemas/workflow-execution';

export interface WorkflowLogReadOptions {
  since?: string;
  until?: string;
  description?: string;
  skill?: string;
}

/** SPEC D12: workflow execution records, oldest first. */
export interface IWorkflowLog {
  append(record: WorkflowExecutionDraft): Promise<WorkflowExecution>;
  read(options?: WorkflowLogReadOptions): Promise<WorkflowExecution[]>;
  /** Removes records older than `before` (all when omitted); returns how many were removed. */
  clear(options?: { before?: string }): Promise<number>;
  close(): Promise<void>;
}
