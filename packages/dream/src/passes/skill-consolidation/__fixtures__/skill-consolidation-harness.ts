import { InMemorySkillStore, InMemorySkillUsageStore, ManualClock, type Skill, type SkillDraft } from '@reverie/core';
import { type HarnessStores, harnessDir, PassHarness } from '../../__fixtures__/pass-harness';
import type { ModelGatewayLike, PassContext } from '../../../engine/dream-types';

export const NOW = '2026-06-01T12:00:00.000Z';

/** The skill names a request showed, read back from the labels of its rendered data. */
export function shownSkills(data: string): string[] {
  return [...data.matchAll(/^Skill ("[^"]*"): created /gm)].map((match) => JSON.parse(match[1]!) as string);
}

/** An in-memory skill library and usage store on a manual clock, with a temp data directory. */
export class SkillConsolidationHarness extends PassHarness {
  readonly skills = new InMemorySkillStore({ clock: this.clock });
  readonly usage = new InMemorySkillUsageStore({ clock: this.clock });

  static async create(): Promise<SkillConsolidationHarness> {
    return new SkillConsolidationHarness(await harnessDir('reverie-skill-consolidation-'), new ManualClock(NOW));
  }

  protected stores(): HarnessStores {
    return { skills: this.skills, skillUsage: this.usage };
  }

  override context(gateway: ModelGatewayLike | undefined, services: { skillUsage?: boolean } = {}): PassContext {
    return this.contextWithout(gateway, services.skillUsage === false ? ['skillUsage'] : []);
  }

  /** Saves a skill created at `createdAt` (default: long ago), the clock left at now. */
  async add(draft: Partial<SkillDraft> & { name: string }): Promise<Skill> {
    this.clock.set(draft.createdAt ?? '2026-01-01T00:00:00.000Z');
    const skill = await this.skills.save({
      summary: `How to handle ${draft.name}`,
      content: `Detailed steps for ${draft.name}: ${'step. '.repeat(40)}`,
      ...draft,
    });
    this.clock.set(NOW);
    return skill;
  }

  async use(skill: string, sessionId: string, timestamp = '2026-05-30T10:00:00.000Z'): Promise<void> {
    await this.usage.record({ skill, sessionId, timestamp });
  }

  async names(): Promise<string[]> {
    return (await this.skills.list()).map((skill) => skill.name);
  }
}
