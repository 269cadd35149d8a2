import type { ConversationLogReadOptions } from '../interfaces/conversation-log';
import type { FeedbackListOptions } from '../interfaces/feedback-store';
import type { SkillUsageListOptions } from '../interfaces/skill-store';
import type { WorkflowLogReadOptions } from '../interfaces/workflow-log';
import type { LoggedTurn } from '../schemas/conversation-turn';
import type { FeedbackSignal } from '../schemas/feedback-signal';
import type { SkillUsage } from '../schemas/skill';
import type { WorkflowExecution } from '../schemas/workflow-execution';
import { byTimestamp, validateRange } from './time-range';
import { inTimeRange } from './write-condition';

// The read rules of the log-like stores, as pure functions over records, shared by the
// in-memory and file implementations so both answer a query the same way.

/** Applies `FeedbackListOptions` to a list of signals: filters, oldest first, the last `limit`. */
export function selectFeedback(signals: readonly FeedbackSignal[], options: FeedbackListOptions): FeedbackSignal[] {
  validateRange(options);
  const selected = signals
    .filter(
      (signal) =>
        inTimeRange(signal.timestamp, options.since, options.until) &&
        (options.sessionId === undefined || signal.sessionId === options.sessionId) &&
        (options.kinds === undefined || options.kinds.includes(signal.kind)),
    )
    .sort(byTimestamp);
  const limited = options.limit === undefined ? selected : selected.slice(Math.max(0, selected.length - options.limit));
  return limited.map((signal) => ({ ...signal }));
}

/** Applies `ConversationLogReadOptions` to turns already in `seq` order. */
export function selectTurns(turns: readonly LoggedTurn[], options: ConversationLogReadOptions): LoggedTurn[] {
  validateRange(options);
  const selected: LoggedTurn[] = [];
  for (const turn of turns) {
    if (options.limit !== undefined && selected.length >= options.limit) break;
    if (options.afterSeq !== undefined && turn.seq <= options.afterSeq) continue;
    if (options.sessionId !== undefined && turn.sessionId !== options.sessionId) continue;
    if (!inTimeRange(turn.timestamp, options.since, options.until)) continue;
    selected.push({ ...turn });
  }
  return selected;
}

/** Applies `WorkflowLogReadOptions`: filters, oldest first. */
export function selectWorkflowExecutions(records: readonly WorkflowExecution[], options: WorkflowLogReadOptions): WorkflowExecution[] {
  validateRange(options);
  return records
    .filter(
      (record) =>
        inTimeRange(record.timestamp, options.since, options.until) &&
        (options.description === undefined || record.description === options.description) &&
        (options.skill === undefined || record.skill === options.skill),
    )
    .sort(byTimestamp)
    .map((record) => ({ ...record }));
}

/** Applies `SkillUsageListOptions`: filters, oldest first. */
export function selectSkillUsages(usages: readonly SkillUsage[], options: SkillUsageListOptions): SkillUsage[] {
  validateRange(options);
  return usages
    .filter(
      (usage) =>
        inTimeRange(usage.timestamp, options.since, options.until) &&
        (options.skill === undefined || usage.skill === options.skill) &&
        (options.sessionId === undefined || usage.sessionId === options.sessionId),
    )
    .sort(byTimestamp)
    .map((usage) => ({ ...usage }));
}
