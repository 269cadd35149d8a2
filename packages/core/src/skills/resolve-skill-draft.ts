import type { IClock } from '../interfaces/clock';
import type { WriteCondition } from '../interfaces/long-term-memory';
import { parseDraft, parseRecord } from '../schemas/parse-record';
import { type Skill, type SkillDraft, skillDraftSchema, skillSchema } from '../schemas/skill';
import { checkCondition, nextTimestamp } from '../stores/write-condition';
import { validateSkillName } from '../validation/path-name';

/**
 * Turns a draft into the skill to store: a new name gets `createdAt` now; a replaced skill keeps
 * `createdAt` and `lastUsedAt` unless the draft carries them; `updatedAt` is stamped now.
 * `seeAlso` is de-duplicated and never lists the skill itself.
 */
export function resolveSkillDraft(
  draft: SkillDraft,
  lookup: (name: string) => Skill | undefined,
  clock: IClock,
  condition?: WriteCondition,
): Skill {
  validateSkillName(draft?.name);
  for (const related of draft.seeAlso ?? []) validateSkillName(related);
  const parsed = parseDraft(skillDraftSchema, draft, 'skill');
  const existing = lookup(parsed.name);
  checkCondition(`Skill ${parsed.name}`, existing, condition);
  const now = nextTimestamp(clock, existing?.updatedAt);
  const skill: Skill = {
    name: parsed.name,
    summary: parsed.summary,
    content: parsed.content,
    seeAlso: [...new Set(parsed.seeAlso ?? [])].filter((name) => name !== parsed.name),
    createdAt: parsed.createdAt ?? existing?.createdAt ?? now,
    updatedAt: now,
    lastUsedAt: parsed.lastUsedAt !== undefined ? parsed.lastUsedAt : (existing?.lastUsedAt ?? null),
  };
  return parseRecord(skillSchema, skill, 'skill');
}

/** The text BM25 indexes for a skill: its name (segments as words), summary and content. */
export function skillDocumentText(skill: Pick<Skill, 'name' | 'summary' | 'content'>): string {
  return [skill.name.replace(/[/-]/g, ' '), skill.summary, skill.content].join(' ');
}
