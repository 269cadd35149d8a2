import type { SkillUsage } from '@reverie/core';

/** Two skills used in the same session, and in how many sessions that happened. */
export interface CoUsedPair {
  /** The two names in alphabetical order (`a` < `b`). */
  a: string;
  b: string;
  sessions: number;
}

/**
 * SPEC D9: the pairs of distinct skills used in the same session most often, at most `limit`,
 * most sessions first, then by name. A session counts once per pair however often either skill
 * was used in it. Give it the usages of the window only. Pure.
 */
export function topCoUsedPairs(usages: readonly SkillUsage[], limit: number): CoUsedPair[] {
  const bySession = new Map<string, Set<string>>();
  for (const usage of usages) {
    const skills = bySession.get(usage.sessionId) ?? new Set<string>();
    skills.add(usage.skill);
    bySession.set(usage.sessionId, skills);
  }
  const counts = new Map<string, CoUsedPair>();
  for (const skills of bySession.values()) {
    const names = [...skills].sort(compareNames);
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const key = `${names[i]}\u0000${names[j]}`;
        const pair = counts.get(key) ?? { a: names[i]!, b: names[j]!, sessions: 0 };
        pair.sessions += 1;
        counts.set(key, pair);
      }
    }
  }
  return [...counts.values()]
    .sort((x, y) => y.sessions - x.sessions || compareNames(x.a, y.a) || compareNames(x.b, y.b))
    .slice(0, Math.max(0, limit));
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
