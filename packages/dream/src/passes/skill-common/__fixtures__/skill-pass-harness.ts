import { InMemoryConversationLog, InMemoryFeedbackStore, InMemorySkillStore, InMemorySkillUsageStore, ManualClock } from '@reverie/core';
import { type HarnessStores, harnessDir, PassHarness } from '../../__fixtures__/pass-harness';

/**
 * In-memory skill, usage, feedback and conversation-log stores on a manual clock, with a temp
 * data directory: enough to plan and apply the skill passes that read the log without an engine.
 */
export class SkillPassHarness extends PassHarness {
  readonly skills = new InMemorySkillStore({ clock: this.clock });
  readonly usage = new InMemorySkillUsageStore({ clock: this.clock });
  readonly feedback = new InMemoryFeedbackStore({ clock: this.clock });
  readonly log = new InMemoryConversationLog({ clock: this.clock });

  static async create(now = '2026-06-01T12:00:00.000Z'): Promise<SkillPassHarness> {
    return new SkillPassHarness(await harnessDir('reverie-skill-pass-'), new ManualClock(now));
  }

  protected stores(): HarnessStores {
    return { skills: this.skills, skillUsage: this.usage, feedback: this.feedback, conversationLog: this.log };
  }
}
