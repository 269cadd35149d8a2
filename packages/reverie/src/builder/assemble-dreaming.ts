import type { TelemetrySettings } from 'ai';
import { dreamSpans } from '../telemetry/dream-spans';
import type { IClock, IEmbedder, IFeedbackStore, ILongTermMemory, ISkillStore, ISkillUsageStore, IWorkflowLog } from '@reverie/core';
import { TOKENS } from '@reverie/core';
import type { RecallSignalStore } from '@reverie/dream/internal';
import type { DreamStateStore } from '@reverie/dream-state';
import { FileDreamStateStore } from '@reverie/file-store';
import type { ConversationMemory } from '../conversation/conversation-memory';
import { DeferredDreamEngine } from '../dreaming/deferred-dream-engine';
import type { DreamingOptions } from '../dreaming/dream-options';
import { DreamTrigger } from '../dreaming/gates/dream-trigger';
import type { SignalSource } from '../dreaming/gates/signal-source';
import { RecallEventLog } from '../dreaming/recall-event-log';
import { DreamScheduler } from '../dreaming/scheduling/dream-scheduler';
import type { InstanceServices, PostgresInstance } from './assemble-services';
import type { ParsedConcerns } from './validate-build';

/** The dream engine's state of the instance, and the recorder of what recall returned. */
export interface DreamState {
  dreamState: DreamStateStore;
  recall: RecallEventLog | undefined;
  /** What the runtime buffers is written before a cycle reads it: recall events and the turns being appended. */
  beforeCycle(): Promise<void>;
}

/**
 * The dream state (`withDreaming({ state })`, else PostgreSQL's or the file one under `dataPath`)
 * and the recall recorder, which only runs when a cycle can read what it records.
 */
export function assembleDreamState(
  { dataPath, clock, logger, memory, own }: InstanceServices,
  options: ParsedConcerns,
  dreamingOptions: DreamingOptions,
  conversation: ConversationMemory,
  postgres?: PostgresInstance,
): DreamState {
  const dreamState: DreamStateStore =
    dreamingOptions.state ??
    own(
      postgres
        ? postgres.stores.dreamState()
        : new FileDreamStateStore({ dataPath, clock, logger, staleLockMinutes: dreamingOptions.staleLockMinutes }),
    );
  // Recall events feed the recall-signals pass, so they are recorded only when a cycle can read them.
  const recall = memory && options.dreaming !== undefined ? new RecallEventLog({ events: dreamState.recall, clock, logger }) : undefined;
  const beforeCycle = async () => {
    await recall?.flush();
    await conversation.settled();
  };
  return { dreamState, recall, beforeCycle };
}

/** The dream cycle of an instance: the engine (loaded with the first cycle), its trigger with the gates, and the scheduler. */
export interface DreamCycle {
  engine: DeferredDreamEngine;
  dreamTrigger: DreamTrigger;
  scheduler: DreamScheduler;
}

/** Wires the dream engine over the instance's services, the trigger through its gates (SPEC O2, O3) and the schedule. */
export function assembleDreamCycle(
  services: InstanceServices,
  options: ParsedConcerns,
  dreamingOptions: DreamingOptions,
  { dreamState, beforeCycle }: DreamState,
): DreamCycle {
  const { optional, dataPath, clock, logger, memory, conversationLog, model, activity, decay, forgotten, tracing, telemetry } = services;
  const engine = new DeferredDreamEngine(
    {
      state: dreamState,
      dataPath,
      clock,
      logger,
      memory,
      skills: optional<ISkillStore>(TOKENS.SkillStore),
      skillUsage: optional<ISkillUsageStore>(TOKENS.SkillUsageStore),
      conversationLog,
      feedback: optional<IFeedbackStore>(TOKENS.FeedbackStore),
      workflowLog: optional<IWorkflowLog>(TOKENS.WorkflowLog),
      model,
      embedder: optional<IEmbedder>(TOKENS.Embedder),
      activity,
      decay,
      forgotten,
    },
    dreamingOptions,
    options.skills?.protected ?? [],
    {
      planMaxAgeMs: dreamingOptions.planMaxAge,
      maxReplyChars: dreamingOptions.maxReplyChars,
      ...(tracing ? { tracing: dreamSpans(tracing) } : {}),
      ...(telemetry ? { telemetry: telemetry as TelemetrySettings } : {}),
    },
    dreamingOptions.passes,
  );
  const dreamsEnabled = dreamingOptions.enabled && options.dreaming !== undefined;
  const { gates } = dreamingOptions;
  const dreamTrigger = new DreamTrigger({
    engine,
    state: dreamState,
    clock,
    logger,
    enabled: dreamsEnabled,
    gates,
    signalSource: dreamingOptions.signalSource ?? (memory ? recallSignalSource(dreamState, memory, dreamingOptions, clock) : undefined),
  });
  const hasGates = gates.minHours !== undefined || gates.minSessions !== undefined || gates.signal !== undefined;
  const scheduler = new DreamScheduler({
    runCycle: async (signal, trigger) => {
      await beforeCycle();
      return dreamTrigger.trigger({ reason: trigger, signal });
    },
    initialDelayMs: dreamingOptions.initialDelay,
    intervalMs: dreamingOptions.interval,
    enabled: dreamsEnabled,
    activity,
    logger,
    // Without a gate the ticker would only repeat the interval's job: it runs only when a gate is set.
    checkIntervalMs: hasGates ? dreamingOptions.checkInterval : undefined,
    sessionEndDebounceMs: dreamingOptions.sessionEndDebounce,
  });
  return { engine, dreamTrigger, scheduler };
}

/** The signal gate's default source: the recall signals the recall-signals pass folded (SPEC O3, O4). */
function recallSignalSource(state: DreamStateStore, memory: ILongTermMemory, options: DreamingOptions, clock: IClock): SignalSource {
  let store: RecallSignalStore | undefined;
  return {
    async unpromotedCandidates(query) {
      // The store belongs to the dream engine's package, loaded with the first cycle (docs/architecture.md).
      store ??= new (await import('@reverie/dream/internal')).RecallSignalStore(state.recall, options.recallSignals);
      return (await store.candidates(memory, query, clock.now())).length;
    },
  };
}
