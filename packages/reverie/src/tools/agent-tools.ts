import type { LanguageModel } from 'ai';
import type { RecallRecorder } from '../dreaming/recall-event-log';
import {
  type ILogger,
  type ILongTermMemory,
  invalidOptions,
  type IWorkingMemory,
  parseRecord,
  ReverieError,
  sessionIdSchema,
} from '@reverie/core';
import type { MemoryForgetting } from '../memory/forgetting/memory-forgetting';
import { createMemoryTools, type MemoryExpansionOptions, type MemoryTools } from './memory-tools';
import { createWorkingMemoryTools, type WorkingMemoryTools } from './working-memory-tools';

/**
 * Which tool families an instance has, as its builder calls say: `.withMemory()` gives the
 * memory tools, `.withWorkingMemory()` the working-memory tools. `boolean` when not known.
 */
export interface ToolFamilies {
  memory: boolean;
  workingMemory: boolean;
}

/** What `createReverie(…)` starts with: neither family until a builder call adds it. */
export interface NoToolFamilies extends ToolFamilies {
  memory: false;
  workingMemory: false;
}

/** `F` with the family `K` present. */
export type WithToolFamily<F extends ToolFamilies, K extends keyof ToolFamilies> = {
  memory: K extends 'memory' ? true : F['memory'];
  workingMemory: K extends 'workingMemory' ? true : F['workingMemory'];
};

type Family<Present extends boolean, Tools> = [Present] extends [true]
  ? Tools
  : [Present] extends [false]
    ? Record<never, never>
    : Partial<Tools>;

/**
 * The tools `forSession` gives: every memory tool when the builder called `.withMemory()`,
 * every working-memory tool when it called `.withWorkingMemory()`, each one present (no
 * "possibly undefined" in a typed tool loop); `Partial` only where the families are not known.
 */
export type SessionTools<F extends ToolFamilies = ToolFamilies> = Family<F['memory'], MemoryTools> &
  Family<F['workingMemory'], WorkingMemoryTools>;

export interface AgentToolServices {
  memory?: ILongTermMemory;
  workingMemory?: IWorkingMemory;
  /** Expands notes saved with save_memory. Without it notes are kept as saved. */
  model?: LanguageModel;
  logger: ILogger;
  expansion?: MemoryExpansionOptions;
  /** Told what search_memory returned (SPEC O4). */
  recall?: RecallRecorder | undefined;
  /** search_memory searches a second time for the names of the best hit (`withMemory({ secondHop })`). */
  secondHop?: boolean;
  /** What forget_memory runs (SPEC B14). */
  forgetting?: MemoryForgetting | undefined;
}

/**
 * The tools an agent gets from Reverie, ready to pass to `generateText({ tools })`:
 * `memory()` for long-term memory (SPEC M6), `workingMemory({ namespace })` for scratch space
 * bound to the caller's namespace (SPEC M8). Work the tools start in the background (note
 * expansion) is tracked; `idle()` resolves once all of it has finished.
 */
export class AgentTools<F extends ToolFamilies = ToolFamilies> {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly services: AgentToolServices) {}

  /**
   * save_memory, search_memory, delete_memory, forget_memory and list_memory_categories. `sessionId`, when
   * given, is recorded in the lineage of what save_memory stores (SPEC B10).
   */
  memory(options: { sessionId?: string } = {}): MemoryTools {
    const { memory, model, logger, expansion, recall, secondHop, forgetting } = this.services;
    if (options?.sessionId !== undefined) parseRecord(sessionIdSchema, options.sessionId, 'tools.memory({ sessionId })');
    if (memory === undefined) {
      throw invalidOptions('Memory tools need a long-term memory store: call .withMemory() on the builder.', [
        { path: 'withMemory', message: 'not configured' },
      ]);
    }
    return createMemoryTools({
      memory,
      logger,
      ...(model === undefined ? {} : { model }),
      ...(expansion === undefined ? {} : { expansion }),
      onBackgroundTask: (task) => this.track(task),
      recall,
      sessionId: options?.sessionId,
      ...(secondHop === undefined ? {} : { secondHop }),
      forgetting,
    });
  }

  /** The working-memory tools, writing only to `namespace` (`session/<id>`, `patrol/<task>`, `subagent/<task>`). */
  workingMemory(options: { namespace: string }): WorkingMemoryTools {
    const { workingMemory, logger } = this.services;
    if (workingMemory === undefined) {
      throw invalidOptions('Working-memory tools need a working-memory store: call .withWorkingMemory() on the builder.', [
        { path: 'withWorkingMemory', message: 'not configured' },
      ]);
    }
    return createWorkingMemoryTools({ workingMemory, namespace: options?.namespace, logger });
  }

  /**
   * Every tool a user session gets: the memory tools (with `.withMemory()`) and the working-memory
   * tools bound to `session/<sessionId>` (with `.withWorkingMemory()`), typed by those builder
   * calls (`SessionTools`). A store given with `.use()` alone adds its tools at run time, not to the type.
   */
  forSession(sessionId: string): SessionTools<F> {
    if (typeof sessionId !== 'string' || sessionId.trim() === '') {
      throw new ReverieError('INVALID_INPUT', 'tools.forSession(sessionId) needs the id of the session (a non-empty string).');
    }
    return {
      ...(this.services.memory === undefined ? {} : this.memory({ sessionId })),
      ...(this.services.workingMemory === undefined ? {} : this.workingMemory({ namespace: `session/${sessionId}` })),
    } as SessionTools<F>;
  }

  /** Resolves when every background task started so far, and any they started, has finished. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private track(task: Promise<void>): void {
    this.pending.add(task);
    const settle = () => void this.pending.delete(task);
    task.then(settle, settle);
  }
}
