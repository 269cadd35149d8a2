import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type FeedbackDraft,
  InMemoryFeedbackStore,
  InMemoryLongTermMemory,
  ManualClock,
  type MemoryDraft,
  type MemoryEntry,
  silentLogger,
} from '@reverie/core';
import type { ModelGatewayLike, PassContext, PassPlan, PassSkip } from '../../../engine/dream-types';
import type { MemoryConsolidationPass } from '../memory-consolidation-pass';
import { normaliseContent } from '../normalise-content';
import { FileDreamStateStore } from '@reverie/file-store';

export const DAY = 86_400_000;

/** An in-memory memory and feedback store on a manual clock, with a temp data directory. */
export class PassHarness {
  readonly clock = new ManualClock('2026-03-01T09:00:00.000Z');
  readonly memory = new InMemoryLongTermMemory({ clock: this.clock });
  readonly feedback = new InMemoryFeedbackStore({ clock: this.clock });
  readonly artifacts = new Map<string, string>();
  /** The pass that made each plan, to commit it after applying. */
  private readonly passOf = new WeakMap<PassPlan, MemoryConsolidationPass>();

  private constructor(readonly dataPath: string) {}

  static async create(): Promise<PassHarness> {
    return new PassHarness(await mkdtemp(join(tmpdir(), 'reverie-consolidation-')));
  }

  async dispose(): Promise<void> {
    await rm(this.dataPath, { recursive: true, force: true });
  }

  /** Saves an entry as if observed at `at` (the clock is set there, then left there). */
  async add(draft: MemoryDraft, at?: string): Promise<MemoryEntry> {
    if (at !== undefined) this.clock.set(at);
    return this.memory.save(draft);
  }

  async addFeedback(draft: FeedbackDraft): Promise<void> {
    await this.feedback.record(draft);
  }

  context(gateway: ModelGatewayLike | undefined, withFeedback = true): PassContext {
    return {
      runId: 'run-test',
      services: {
        state: new FileDreamStateStore({ dataPath: this.dataPath, clock: this.clock }),
        dataPath: this.dataPath,
        clock: this.clock,
        logger: silentLogger,
        memory: this.memory,
        ...(withFeedback ? { feedback: this.feedback } : {}),
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

  async plan(pass: MemoryConsolidationPass, gateway?: ModelGatewayLike): Promise<PassPlan> {
    const planned: PassPlan | PassSkip = await pass.plan(this.context(gateway));
    if ('skipped' in planned) throw new Error(`pass skipped: ${planned.skipped}`);
    this.passOf.set(planned, pass);
    return planned;
  }

  /** Applies a plan the way the engine does (saves, then deletes, with their conditions), then commits it through JSON. */
  async apply(plan: PassPlan): Promise<void> {
    this.clock.advance(60_000);
    for (const operation of plan.operations) {
      if (operation.op === 'memory.save') await this.memory.save(operation.entry, { ifUpdatedAt: operation.expectUpdatedAt });
    }
    for (const operation of plan.operations) {
      if (operation.op === 'memory.delete') await this.memory.delete(operation.id, { ifUpdatedAt: operation.expectUpdatedAt });
    }
    if (plan.commit !== undefined) await this.passOf.get(plan)!.commit(this.context(undefined).services, JSON.parse(JSON.stringify(plan.commit)));
  }

  /** Plans and applies one run. */
  async run(pass: MemoryConsolidationPass, gateway?: ModelGatewayLike): Promise<PassPlan> {
    const plan = await this.plan(pass, gateway);
    await this.apply(plan);
    return plan;
  }

  async live(): Promise<MemoryEntry[]> {
    return this.memory.list();
  }

  /** Normalised contents that more than one live entry shares. */
  async duplicatedContents(): Promise<string[]> {
    const seen = new Map<string, number>();
    for (const entry of await this.live()) {
      const key = normaliseContent(entry.content);
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    return [...seen].filter(([, count]) => count > 1).map(([key]) => key);
  }
}

/** The index of the last save and the first delete of a plan: saves must all come first. */
export function savesBeforeDeletes(plan: PassPlan): boolean {
  const lastSave = plan.operations.map((operation) => operation.op).lastIndexOf('memory.save');
  const firstDelete = plan.operations.findIndex((operation) => operation.op === 'memory.delete');
  return firstDelete === -1 || lastSave < firstDelete;
}
