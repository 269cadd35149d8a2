import { stripRetentionTags } from '../memory-consolidation/normalise-content';

/** The text fields of a skill the model wrote. */
export interface SkillText {
  name: string;
  summary: string;
  content: string;
}

/**
 * SPEC D17: a skill draft without retention hints (`[skip]`, `[durable]`…) in its name, summary
 * or content, so no saved skill ever carries one. Surrounding whitespace goes too. Pure.
 */
export function stripSkillTags<T extends SkillText>(draft: T): T {
  return {
    ...draft,
    name: stripRetentionTags(draft.name),
    summary: stripRetentionTags(draft.summary),
    content: stripRetentionTags(draft.content),
  };
}

export interface SeeAlsoFilter {
  /** The related names kept, de-duplicated, in the model's order. */
  kept: string[];
  /** Names dropped because no such skill exists (nor is planned in this run). */
  dropped: string[];
}

/**
 * Keeps only the `seeAlso` entries that name a skill in `known` (skills that exist, plus any the
 * run creates), never the skill itself, each once. Retention hints are stripped first. Pure.
 */
export function filterSeeAlso(seeAlso: readonly string[], known: ReadonlySet<string>, self: string): SeeAlsoFilter {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const raw of seeAlso) {
    const name = stripRetentionTags(raw);
    if (name === self || kept.includes(name)) continue;
    if (known.has(name)) kept.push(name);
    else dropped.push(raw);
  }
  return { kept, dropped };
}
