import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySkillStore, InMemorySkillUsageStore, ManualClock, type Skill, type SkillDraft, silentLogger } from '@reverie/core';
import type { GatewayRequest, ModelGatewayLike, PassContext, PassPlan, PassSkip } from '../../../engine/dream-types';
import type { SkillConsolidationPass } from '../skill-consolidation-pass';
import { FileDreamStateStore } from '@reverie/file-store';

export const NOW = '2026-06-01T12:00:00.000Z';

/** The skill names a request showed, read back from the labels of its rendered data. */
export function shownSkills(data: string): string[] {
  return [...data.matchAll(/^Skill ("[^"]*"): created /gm)].map((match) => JSON.parse(match[1]!) as string);
}

export type Script = (data: string, call: number) => unknown;

/** A `ModelGatewayLike` whose replies come from a script, parsed with the request's schema as the real gateway does. */
export class ScriptedGateway implements ModelGatewayLike {
  readonly requests: Array<GatewayRequest<unknown>> = [];
  readonly usage = { inputTokens: 0, outputTokens: 0, calls: 0 };
  readonly refusals: string[] = [];

  constructor(private readonly script: Script = () => ({ toDelete: [], toSave: [] })) {}

  async ask<T>(request: GatewayRequest<T>): Promise<T> {
    this.requests.push(request as GatewayRequest<unknown>);
    this.usage.calls += 1;
    return request.schema.parse(this.script(request.data, this.usage.calls));
  }

  /** The skills shown in each request, in order. */
  shown(): string[][] {
    return this.requests.map((request) => shownSkills(request.data));
  }
}

/** An in-memory skill library and usage store on a manual clock, with a temp data directory. */
export class SkillPassHarness {
  readonly clock = new ManualClock(NOW);
  readonly skills = new InMemorySkillStore({ clock: this.clock });
  readonly usage = new InMemorySkillUsageStore({ clock: this.clock });
  readonly artifacts = new Map<string, string>();

  private constructor(readonly dataPath: string) {}

  static async create(): Promise<SkillPassHarness> {
    return new SkillPassHarness(await mkdtemp(join(tmpdir(), 'reverie-skill-consolidation-')));
  }

  async dispose(): Promise<void> {
    await rm(this.dataPath, { recursive: true, force: true });
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

  context(gateway: ModelGatewayLike | undefined, services: { skillUsage?: boolean } = {}): PassContext {
    return {
      runId: 'run-test',
      services: {
        state: new FileDreamStateStore({ dataPath: this.dataPath, clock: this.clock }),
        dataPath: this.dataPath,
        clock: this.clock,
        logger: silentLogger,
        skills: this.skills,
        ...(services.skillUsage === false ? {} : { skillUsage: this.usage }),
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

  async plan(pass: SkillConsolidationPass, gateway: ModelGatewayLike): Promise<PassPlan> {
    const planned: PassPlan | PassSkip = await pass.plan(this.context(gateway));
    if ('skipped' in planned) throw new Error(`pass skipped: ${planned.skipped}`);
    return planned;
  }

  /** Applies a plan the way the engine does: saves, then deletes, each with its condition. */
  async apply(plan: PassPlan): Promise<void> {
    this.clock.advance(60_000);
    for (const operation of plan.operations) {
      if (operation.op === 'skill.save') await this.skills.save(operation.skill, { ifUpdatedAt: operation.expectUpdatedAt });
    }
    for (const operation of plan.operations) {
      if (operation.op === 'skill.delete') await this.skills.delete(operation.name, { ifUpdatedAt: operation.expectUpdatedAt });
    }
  }

  async run(pass: SkillConsolidationPass, gateway: ModelGatewayLike): Promise<PassPlan> {
    const plan = await this.plan(pass, gateway);
    await this.apply(plan);
    return plan;
  }

  async names(): Promise<string[]> {
    return (await this.skills.list()).map((skill) => skill.name);
  }
}

/** Whether every save of a plan comes before its first delete. */
export function savesBeforeDeletes(plan: PassPlan): boolean {
  const ops = plan.operations.map((operation) => operation.op);
  const firstDelete = ops.indexOf('skill.delete');
  return firstDelete === -1 || ops.lastIndexOf('skill.save') < firstDelete;
}
