import {
  type IWorkflowLog,
  newId,
  type TimeInput,
  validateRange,
  type WorkflowExecution,
  type WorkflowExecutionDraft,
  workflowExecutionSchema,
  type WorkflowLogReadOptions,
} from '@reverie/core';
import { parseDraft } from '@reverie/core/internal';
import { SqlParams, timeRangeSql } from '../sql/sql-params';
import { type PostgresStoreOptions, type ResolvedStoreOptions, resolveStoreOptions } from '../stores/postgres-store-options';
import { isoFromRow, normaliseTime, recordFromRow } from '../stores/row-values';
import { StoreGate } from '../stores/store-gate';

export type PostgresWorkflowLogOptions = PostgresStoreOptions;

type ExecutionRow = {
  id: string;
  description: string;
  skill: string | null;
  success: boolean;
  failed_step: string | null;
  error: string | null;
  executed_at: Date | string;
  duration_ms: number | string | null;
};

/**
 * `IWorkflowLog` (SPEC D12) on PostgreSQL: one row per workflow run in
 * `reverie_workflow_executions`, read by time (runs with the same timestamp in the order they
 * were appended).
 */
export class PostgresWorkflowLog implements IWorkflowLog {
  private readonly options: ResolvedStoreOptions;
  private readonly gate: StoreGate;

  constructor(options: PostgresWorkflowLogOptions) {
    this.options = resolveStoreOptions(options, 'PostgresWorkflowLog');
    this.gate = new StoreGate(this.options.client, 'workflow log');
  }

  async append(record: WorkflowExecutionDraft): Promise<WorkflowExecution> {
    this.gate.assertOpen();
    const parsed = parseDraft(
      workflowExecutionSchema,
      { ...record, id: record?.id ?? newId(), timestamp: record?.timestamp ?? this.options.clock.now().toISOString() },
      'workflow execution',
    );
    const execution: WorkflowExecution = { ...parsed, timestamp: normaliseTime(parsed.timestamp) };
    const client = await this.gate.ready();
    await client.query(
      `INSERT INTO reverie_workflow_executions (scope, id, description, skill, success, failed_step, error, executed_at, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        this.options.scope,
        execution.id,
        execution.description,
        execution.skill ?? null,
        execution.success,
        execution.failedStep ?? null,
        execution.error ?? null,
        execution.timestamp,
        execution.durationMs ?? null,
      ],
    );
    return execution;
  }

  async read(options: WorkflowLogReadOptions = {}): Promise<WorkflowExecution[]> {
    this.gate.assertOpen();
    validateRange(options);
    const params = new SqlParams();
    const conditions = [`scope = ${params.add(this.options.scope)}`, ...timeRangeSql(params, 'executed_at', options)];
    if (options.description !== undefined) conditions.push(`description = ${params.add(options.description)}`);
    if (options.skill !== undefined) conditions.push(`skill = ${params.add(options.skill)}`);
    const client = await this.gate.ready();
    const rows = await client.query<ExecutionRow>(
      `SELECT id, description, skill, success, failed_step, error, executed_at, duration_ms FROM reverie_workflow_executions
        WHERE ${conditions.join(' AND ')} ORDER BY executed_at, position`,
      params.values,
    );
    return rows.map((row) => this.executionFromRow(row));
  }

  async clear(options: { before?: TimeInput } = {}): Promise<number> {
    this.gate.assertOpen();
    validateRange({ until: options.before });
    const params = new SqlParams();
    const conditions = [`scope = ${params.add(this.options.scope)}`, ...timeRangeSql(params, 'executed_at', { until: options.before })];
    const client = await this.gate.ready();
    const removed = await client.query(
      `DELETE FROM reverie_workflow_executions WHERE ${conditions.join(' AND ')} RETURNING position`,
      params.values,
    );
    return removed.length;
  }

  async close(): Promise<void> {
    this.gate.close();
  }

  private executionFromRow(row: ExecutionRow): WorkflowExecution {
    const execution = {
      id: row.id,
      description: row.description,
      ...(row.skill === null ? {} : { skill: row.skill }),
      success: row.success,
      ...(row.failed_step === null ? {} : { failedStep: row.failed_step }),
      ...(row.error === null ? {} : { error: row.error }),
      timestamp: isoFromRow(row.executed_at),
      ...(row.duration_ms === null ? {} : { durationMs: Number(row.duration_ms) }),
    };
    return recordFromRow(workflowExecutionSchema, execution, {
      table: 'reverie_workflow_executions',
      scope: this.options.scope,
      key: row.id,
    });
  }
}
