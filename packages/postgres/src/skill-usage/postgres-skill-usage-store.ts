import {
  type ISkillUsageStore,
  type SkillUsage,
  type SkillUsageDraft,
  type SkillUsageListOptions,
  skillUsageSchema,
  validateRange,
  validateSkillName,
} from '@reverie/core';
import { parseDraft } from '@reverie/core/internal';
import { SqlParams, timeRangeSql } from '../sql/sql-params';
import { type PostgresStoreOptions, type ResolvedStoreOptions, resolveStoreOptions } from '../stores/postgres-store-options';
import { isoFromRow, normaliseTime, recordFromRow } from '../stores/row-values';
import { StoreGate } from '../stores/store-gate';

export type PostgresSkillUsageStoreOptions = PostgresStoreOptions;

type UsageRow = {
  skill: string;
  session_id: string;
  used_at: Date | string;
  position: string | number;
};

/**
 * `ISkillUsageStore` (SPEC M13) on PostgreSQL: one row per use of a skill in
 * `reverie_skill_usage`, listed by time (uses with the same timestamp in the order they were recorded).
 */
export class PostgresSkillUsageStore implements ISkillUsageStore {
  private readonly options: ResolvedStoreOptions;
  private readonly gate: StoreGate;

  constructor(options: PostgresSkillUsageStoreOptions) {
    this.options = resolveStoreOptions(options, 'PostgresSkillUsageStore');
    this.gate = new StoreGate(this.options.client, 'skill usage store');
  }

  async record(usage: SkillUsageDraft): Promise<SkillUsage> {
    this.gate.assertOpen();
    validateSkillName(usage?.skill);
    const parsed = parseDraft(
      skillUsageSchema,
      { ...usage, timestamp: usage.timestamp ?? this.options.clock.now().toISOString() },
      'skill usage',
    );
    const record: SkillUsage = { ...parsed, timestamp: normaliseTime(parsed.timestamp) };
    const client = await this.gate.ready();
    await client.query('INSERT INTO reverie_skill_usage (scope, skill, session_id, used_at) VALUES ($1, $2, $3, $4)', [
      this.options.scope,
      record.skill,
      record.sessionId,
      record.timestamp,
    ]);
    return record;
  }

  async list(options: SkillUsageListOptions = {}): Promise<SkillUsage[]> {
    this.gate.assertOpen();
    validateRange(options);
    const params = new SqlParams();
    const conditions = [`scope = ${params.add(this.options.scope)}`, ...timeRangeSql(params, 'used_at', options)];
    if (options.skill !== undefined) conditions.push(`skill = ${params.add(options.skill)}`);
    if (options.sessionId !== undefined) conditions.push(`session_id = ${params.add(options.sessionId)}`);
    const client = await this.gate.ready();
    const rows = await client.query<UsageRow>(
      `SELECT skill, session_id, used_at, position FROM reverie_skill_usage WHERE ${conditions.join(' AND ')} ORDER BY used_at, position`,
      params.values,
    );
    return rows.map((row) => {
      const usage = { skill: row.skill, sessionId: row.session_id, timestamp: isoFromRow(row.used_at) };
      return recordFromRow(skillUsageSchema, usage, {
        table: 'reverie_skill_usage',
        scope: this.options.scope,
        key: `position ${String(row.position)}`,
      });
    });
  }

  async close(): Promise<void> {
    this.gate.close();
  }
}
