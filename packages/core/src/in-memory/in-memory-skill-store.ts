import type { IClock } from '../interfaces/clock';
import type { WriteCondition } from '../interfaces/long-term-memory';
import type { ISkillStore } from '../interfaces/skill-store';
import { parseDraft } from '../schemas/parse-record';
import { type Skill, type SkillDraft, type SkillSearchQuery, type SkillSearchResult, skillSearchQuerySchema } from '../schemas/skill';
import { Bm25Index } from '../search/bm25-index';
import { resolveSkillDraft, skillDocumentText } from '../skills/resolve-skill-draft';
import { assertOpen, checkCondition } from '../stores/write-condition';
import { systemClock } from '../time/system-clock';
import { isUnderPrefix, validateSkillName } from '../validation/path-name';
import type { InMemoryStoreOptions } from './in-memory-store-options';

const byName = (a: Skill, b: Skill) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The reference `ISkillStore`: skills in a Map with a BM25 index. Nothing persists. */
export class InMemorySkillStore implements ISkillStore {
  private readonly skills = new Map<string, Skill>();
  private readonly index = new Bm25Index();
  private readonly clock: IClock;
  private closed = false;

  constructor(options: InMemoryStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  async get(name: string): Promise<Skill | undefined> {
    assertOpen(this.closed, 'skill store');
    validateSkillName(name);
    const skill = this.skills.get(name);
    return skill && structuredClone(skill);
  }

  async save(draft: SkillDraft, condition?: WriteCondition): Promise<Skill> {
    assertOpen(this.closed, 'skill store');
    const skill = resolveSkillDraft(draft, (name) => this.skills.get(name), this.clock, condition);
    this.skills.set(skill.name, skill);
    this.index.set(skill.name, skillDocumentText(skill));
    return structuredClone(skill);
  }

  async delete(name: string, condition?: WriteCondition): Promise<boolean> {
    assertOpen(this.closed, 'skill store');
    validateSkillName(name);
    checkCondition(`Skill ${name}`, this.skills.get(name), condition);
    this.index.delete(name);
    return this.skills.delete(name);
  }

  async list(options: { prefix?: string } = {}): Promise<Skill[]> {
    assertOpen(this.closed, 'skill store');
    const prefix = options.prefix === undefined ? undefined : validateSkillName(options.prefix);
    return [...this.skills.values()]
      .filter((skill) => prefix === undefined || isUnderPrefix(skill.name, prefix))
      .sort(byName)
      .map((skill) => structuredClone(skill));
  }

  async search(query: SkillSearchQuery): Promise<SkillSearchResult[]> {
    assertOpen(this.closed, 'skill store');
    if (query?.prefix !== undefined) validateSkillName(query.prefix);
    const { text, prefix, maxResults } = parseDraft(skillSearchQuerySchema, query, 'skill search');
    const matches = (name: string) => prefix === undefined || isUnderPrefix(name, prefix);
    if (text !== undefined && text.trim() !== '') {
      return this.index
        .search(text, { filter: matches, limit: maxResults })
        .map((hit) => ({ skill: structuredClone(this.skills.get(hit.id)!), score: hit.score }));
    }
    return [...this.skills.values()]
      .filter((skill) => matches(skill.name))
      .sort(byName)
      .slice(0, maxResults)
      .map((skill) => ({ skill: structuredClone(skill), score: 0 }));
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
