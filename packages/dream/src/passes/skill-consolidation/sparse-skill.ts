import { type Skill } from '@reverie/core';
import { timestampMs } from '@reverie/core/internal';
import { subDays } from 'date-fns/subDays';

/** When a skill counts as sparse. */
export interface SparseRule {
  /** Content shorter than this many characters (surrounding whitespace not counted). */
  sparseChars: number;
  /** Created more than this many days before now. */
  sparseMinAgeDays: number;
}

/**
 * SPEC D9: whether a skill gets the `[sparse-content]` mark: little content, and old enough
 * that it is not just a fresh stub about to be filled in. Pure.
 */
export function isSparseSkill(skill: Pick<Skill, 'content' | 'createdAt'>, now: Date, rule: SparseRule): boolean {
  if (skill.content.trim().length >= rule.sparseChars) return false;
  return timestampMs(skill.createdAt) < subDays(now, rule.sparseMinAgeDays).getTime();
}
