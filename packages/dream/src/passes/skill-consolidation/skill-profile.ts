import { type Skill, type SkillUsage } from '@reverie/core';
import { matchesAnySkillPattern } from '@reverie/core/internal';
import { isSparseSkill, type SparseRule } from './sparse-skill';
import { countSkillUsage, type UsageWindow } from './usage-window';

/** One skill with what the host computed about it, as the model and the guards see it. */
export interface SkillProfile {
  skill: Skill;
  /** Uses inside the usage window. */
  uses: number;
  /** Carries the `[sparse-content]` mark. */
  sparse: boolean;
  /** Matches a `protectedSkills` pattern: never merged, rewritten or deleted. */
  protected: boolean;
  /**
   * Its content was too long to show whole in one call: the model saw only the start, so the
   * skill is read-only for this run (it may still be named in seeAlso).
   */
  truncated: boolean;
}

export interface ProfileRules extends SparseRule {
  protectedSkills: readonly string[];
  /** Longest content shown whole, in characters. */
  maxContentChars: number;
}

/** Profiles every skill of the catalogue, in the catalogue's order. Pure. */
export function buildSkillProfiles(
  skills: readonly Skill[],
  usages: readonly SkillUsage[],
  context: { now: Date; window: UsageWindow; rules: ProfileRules },
): SkillProfile[] {
  const counts = countSkillUsage(usages, context.window);
  return skills.map((skill) => ({
    skill,
    uses: counts.get(skill.name) ?? 0,
    sparse: isSparseSkill(skill, context.now, context.rules),
    protected: matchesAnySkillPattern(skill.name, context.rules.protectedSkills),
    truncated: skill.content.length > context.rules.maxContentChars,
  }));
}
