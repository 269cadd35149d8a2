import { type SkillUsage } from '@reverie/core';
import { timestampMs } from '@reverie/core/internal';
import { subDays } from 'date-fns/subDays';

/** The stretch of time usage is counted over: the last `days` days up to `now`. */
export interface UsageWindow {
  since: Date;
  until: Date;
}

/** The window of the last `days` days ending at `now`. Pure. */
export function usageWindow(now: Date, days: number): UsageWindow {
  return { since: subDays(now, days), until: now };
}

/** The usage records that fall inside the window (bounds included). Pure. */
export function usagesInWindow(usages: readonly SkillUsage[], window: UsageWindow): SkillUsage[] {
  const since = window.since.getTime();
  const until = window.until.getTime();
  return usages.filter((usage) => {
    const at = timestampMs(usage.timestamp);
    return at >= since && at <= until;
  });
}

/**
 * SPEC D9: how many times each skill was used inside the window. Skills not used in it are
 * absent from the map (count 0). Pure.
 */
export function countSkillUsage(usages: readonly SkillUsage[], window: UsageWindow): Map<string, number> {
  const counts = new Map<string, number>();
  for (const usage of usagesInWindow(usages, window)) counts.set(usage.skill, (counts.get(usage.skill) ?? 0) + 1);
  return counts;
}
