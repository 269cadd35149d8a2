import type { TimeInput } from '../schemas/common';
import type { Skill, SkillDraft, SkillSearchQuery, SkillSearchResult, SkillUsage, SkillUsageDraft } from '../schemas/skill';
import type { WriteCondition } from './long-term-memory';

/** SPEC M13: the skill library. Names are slash paths such as `mcp/email`. */
export interface ISkillStore {
  get(name: string): Promise<Skill | undefined>;
  save(draft: SkillDraft, condition?: WriteCondition): Promise<Skill>;
  delete(name: string, condition?: WriteCondition): Promise<boolean>;
  /** Every skill (optionally under a name prefix), sorted by name. */
  list(options?: { prefix?: string }): Promise<Skill[]>;
  /** BM25 over name, summary and content; without text, sorted by name. */
  search(query: SkillSearchQuery): Promise<SkillSearchResult[]>;
  close(): Promise<void>;
}

export interface SkillUsageListOptions {
  since?: TimeInput;
  until?: TimeInput;
  skill?: string;
  sessionId?: string;
}

/** SPEC M13: which skill was used in which session, and when; oldest first. */
export interface ISkillUsageStore {
  record(usage: SkillUsageDraft): Promise<SkillUsage>;
  list(options?: SkillUsageListOptions): Promise<SkillUsage[]>;
  close(): Promise<void>;
}
