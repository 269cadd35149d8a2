import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  InMemoryConversationLog,
  InMemoryFeedbackStore,
  InMemorySkillStore,
  InMemorySkillUsageStore,
  ManualClock,
  silentLogger,
} from '@reverie/core';
import type { DreamPass, ModelGatewayLike, PassContext, PassPlan, PassSkip } from '../../../engine/dream-types';
import { FileDreamStateStore } from '@reverie/file-store';

/**
 * In-memory skill, usage, feedback and conversation-log stores on a manual clock, with a temp
 * data directory: enough to plan and apply the skill passes without an engine.
 */
export class SkillPassHarness {
  readonly clock: ManualClock;
  readonly skills: InMemorySkillStore;
  readonly usage: InMemorySkillUsageStore;
  readonly feedback: InMemoryFeedbackStore;
  readonly log: InMemoryConversationLog;
  readonly artifacts = new Map<string, string>();
  /** The pass that made each plan, to commit it after applying. */
  private readonly passOf = new WeakMap<PassPlan, DreamPass>();

  private constructor(
    readonly dataPath: string,
    now: string,
  ) {
    this.clock = new ManualClock(now);
    this.skills = new InMemorySkillStore({ clock: this.clock });
    this.usage = new InMemorySkillUsageStore({ clock: this.clock });
    this.feedback = new InMemoryFeedbackStore({ clock: this.clock });
    this.log = new InMemoryConversationLog({ clock: this.clock });
  }

  static async create(now = '2026-06-01T12:00:00.000Z'): Promise<SkillPassHarness> {
    return new SkillPassHarness(await mkdtemp(join(tmpdir(), 'reverie-skill-pass-')), now);
  }

  async dispose(): Promise<void> {
    await rm(this.dataPath, { recursive: true, force: true });
  }

  context(gateway: ModelGatewayLike | undefined): PassContext {
    return {
      runId: 'run-test',
      services: {
        state: new FileDreamStateStore({ dataPath: this.dataPath, clock: this.clock }),
        dataPath: this.dataPath,
        clock: this.clock,
        logger: silentLogger,
        skills: this.skills,
        skillUsage: this.usage,
        feedback: this.feedback,
        conversationLog: this.log,
      },
      gateway,
      signal: new AbortController().signal,
      conversationLogHorizon: async () => Number.POSITIVE_INFINITY,
      artifact: async (name, content) => {
        this.artifacts.set(name, content);
      },
      now: () => this.clock.now(),
    };
  }

  async plan(pass: DreamPass, gateway?: ModelGatewayLike): Promise<PassPlan> {
    const planned: PassPlan | PassSkip = await pass.plan(this.context(gateway));
    if ('skipped' in planned) throw new Error(`pass skipped: ${planned.skipped}`);
    this.passOf.set(planned, pass);
    return planned;
  }

  /** Applies a plan's skill operations the way the engine does (with their conditions), then commits it through JSON. */
  async apply(plan: PassPlan): Promise<void> {
    this.clock.advance(60_000);
    for (const operation of plan.operations) {
      if (operation.op === 'skill.save') await this.skills.save(operation.skill, { ifUpdatedAt: operation.expectUpdatedAt });
    }
    for (const operation of plan.operations) {
      if (operation.op === 'skill.delete') await this.skills.delete(operation.name, { ifUpdatedAt: operation.expectUpdatedAt });
    }
    if (plan.commit !== undefined) await this.passOf.get(plan)!.commit?.(this.context(undefined).services, JSON.parse(JSON.stringify(plan.commit)));
  }

  async run(pass: DreamPass, gateway?: ModelGatewayLike): Promise<PassPlan> {
    const plan = await this.plan(pass, gateway);
    await this.apply(plan);
    return plan;
  }
}
