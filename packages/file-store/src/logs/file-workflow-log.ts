import { join } from 'node:path';
import {
  assertOpen,
  type IClock,
  type ILogger,
  inTimeRange,
  type IWorkflowLog,
  newId,
  selectWorkflowExecutions,
  silentLogger,
  systemClock,
  type TimeInput,
  validateRange,
  type WorkflowExecution,
  type WorkflowExecutionDraft,
  workflowExecutionSchema,
  type WorkflowLogReadOptions,
} from '@reverie/core';
import { parseDraft } from '@reverie/core/internal';
import { DirectoryLock } from '../fs/directory-lock';
import { validateStoreOptions } from '../options/validate-store-options';
import { JsonlFile } from './jsonl-file';

export interface FileWorkflowLogOptions {
  /** The agent's data directory; records go to `<dataPath>/logs/workflow.jsonl`. */
  dataPath: string;
  clock?: IClock;
  logger?: ILogger;
}

/**
 * The default `IWorkflowLog` (SPEC D12): one JSON line per workflow run in
 * `<dataPath>/logs/workflow.jsonl`, safe for several processes on one data directory.
 */
export class FileWorkflowLog implements IWorkflowLog {
  private readonly clock: IClock;
  private readonly file: JsonlFile<WorkflowExecution>;
  private closed = false;

  constructor(options: FileWorkflowLogOptions) {
    const valid = validateStoreOptions(options, 'FileWorkflowLog');
    this.clock = valid.clock ?? systemClock;
    const logger = valid.logger ?? silentLogger;
    const dir = join(valid.dataPath, 'logs');
    this.file = new JsonlFile({
      path: join(dir, 'workflow.jsonl'),
      schema: workflowExecutionSchema,
      lock: new DirectoryLock(dir, { logger }),
      logger,
      clock: this.clock,
      what: 'workflow execution',
    });
  }

  async append(record: WorkflowExecutionDraft): Promise<WorkflowExecution> {
    this.assertOpen();
    const parsed = parseDraft(
      workflowExecutionSchema,
      { ...record, id: record?.id ?? newId(), timestamp: record?.timestamp ?? this.clock.now().toISOString() },
      'workflow execution',
    );
    await this.file.append([parsed]);
    return { ...parsed };
  }

  async read(options: WorkflowLogReadOptions = {}): Promise<WorkflowExecution[]> {
    this.assertOpen();
    validateRange(options);
    const { records } = await this.file.read();
    return selectWorkflowExecutions(records, options);
  }

  async clear(options: { before?: TimeInput } = {}): Promise<number> {
    this.assertOpen();
    validateRange({ until: options.before });
    const { before } = options;
    return this.file.rewrite((record) => before !== undefined && !inTimeRange(record.timestamp, undefined, before));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.file.idle();
  }

  private assertOpen(): void {
    assertOpen(this.closed, 'workflow log');
  }
}
