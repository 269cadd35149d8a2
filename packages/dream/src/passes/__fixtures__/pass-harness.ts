import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ManualClock, silentLogger } from '@reverie/core';
import { FileDreamStateStore } from '@reverie/file-store';
import type { DreamPass, DreamServices, ModelGatewayLike, PassContext, PassPlan, PassSkip } from '../../engine/dream-types';

/** The stores a harness hands its passes. */
export type HarnessStores = Pick<DreamServices, 'memory' | 'skills' | 'skillUsage' | 'feedback' | 'conversationLog'>;

/** A temp data directory for a harness. */
export function harnessDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/**
 * What every pass's tests share: a temp data directory with the file dream state, a manual clock,
 * in-memory stores (the subclass says which), and planning, applying and committing a pass the way
 * the engine does — without an engine.
 */
export abstract class PassHarness {
  readonly artifacts = new Map<string, string>();
  /** The pass that made each plan, to commit it after applying. */
  private readonly passOf = new WeakMap<PassPlan, DreamPass>();

  protected constructor(
    readonly dataPath: string,
    readonly clock: ManualClock,
  ) {}

  /** The stores the passes see. */
  protected abstract stores(): HarnessStores;

  async dispose(): Promise<void> {
    await rm(this.dataPath, { recursive: true, force: true });
  }

  context(gateway: ModelGatewayLike | undefined): PassContext {
    return this.contextWithout(gateway, []);
  }

  /** A pass's context with the stores named in `left` left out (a service the host did not configure). */
  protected contextWithout(gateway: ModelGatewayLike | undefined, left: ReadonlyArray<keyof HarnessStores>): PassContext {
    const stores = Object.fromEntries(Object.entries(this.stores()).filter(([name]) => !left.includes(name as keyof HarnessStores)));
    return {
      runId: 'run-test',
      services: {
        state: new FileDreamStateStore({ dataPath: this.dataPath, clock: this.clock }),
        dataPath: this.dataPath,
        clock: this.clock,
        logger: silentLogger,
        ...stores,
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

  /** Applies a plan the way the engine does (saves, then deletes, each with its condition), then commits it through JSON. */
  async apply(plan: PassPlan): Promise<void> {
    this.clock.advance(60_000);
    const { memory, skills } = this.stores();
    for (const operation of plan.operations) {
      if (operation.op === 'memory.save') await memory!.save(operation.entry, { ifUpdatedAt: operation.expectUpdatedAt });
      if (operation.op === 'skill.save') await skills!.save(operation.skill, { ifUpdatedAt: operation.expectUpdatedAt });
    }
    for (const operation of plan.operations) {
      if (operation.op === 'memory.delete') await memory!.delete(operation.id, { ifUpdatedAt: operation.expectUpdatedAt });
      if (operation.op === 'skill.delete') await skills!.delete(operation.name, { ifUpdatedAt: operation.expectUpdatedAt });
    }
    if (plan.commit !== undefined)
      await this.passOf.get(plan)!.commit?.(this.context(undefined).services, JSON.parse(JSON.stringify(plan.commit)));
  }

  /** Plans and applies one run. */
  async run(pass: DreamPass, gateway?: ModelGatewayLike): Promise<PassPlan> {
    const plan = await this.plan(pass, gateway);
    await this.apply(plan);
    return plan;
  }
}

/** Whether every save of a plan comes before its first delete. */
export function savesBeforeDeletes(plan: PassPlan): boolean {
  const ops = plan.operations.map((operation) => operation.op);
  const firstDelete = ops.findIndex((op) => op.endsWith('.delete'));
  return firstDelete === -1 || ops.findLastIndex((op) => op.endsWith('.save')) < firstDelete;
}
