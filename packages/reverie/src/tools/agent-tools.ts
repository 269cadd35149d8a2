import type { LanguageModel } from 'ai';
import type { RecallRecorder } from '@reverie/dream';
import { type ILogger, type ILongTermMemory, type IWorkingMemory, parseRecord, ReverieError, sessionIdSchema } from '@reverie/core';
import { createMemoryTools, type MemoryExpansionOptions, type MemoryTools } from './memory-tools';
import { createWorkingMemoryTools, type WorkingMemoryTools } from './working-memory-tools';

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
}

/**
 * The tools an agent gets from Reverie, ready to pass to `generateText({ tools })`:
 * `memory()` for long-term memory (SPEC M6), `workingMemory({ namespace })` for scratch space
 * bound to the caller's namespace (SPEC M8). Work the tools start in the background (note
 * expansion) is tracked; `idle()` resolves once all of it has finished.
 */
export class AgentTools {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly services: AgentToolServices) {}

  /**
   * save_memory, search_memory, delete_memory and list_memory_categories. `sessionId`, when
   * given, is recorded in the lineage of what save_memory stores (SPEC B10).
   */
  memory(options: { sessionId?: string } = {}): MemoryTools {
    const { memory, model, logger, expansion, recall, secondHop } = this.services;
    if (options?.sessionId !== undefined) parseRecord(sessionIdSchema, options.sessionId, 'tools.memory({ sessionId })');
    if (memory === undefined) {
      throw new ReverieError('INVALID_OPTIONS', 'Memory tools need a long-term memory store: call .withMemory() on the builder.');
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
    });
  }

  /** The working-memory tools, writing only to `namespace` (`session/<id>`, `patrol/<task>`, `subagent/<task>`). */
  workingMemory(options: { namespace: string }): WorkingMemoryTools {
    const { workingMemory, logger } = this.services;
    if (workingMemory === undefined) {
      throw new ReverieError(
        'INVALID_OPTIONS',
        'Working-memory tools need a working-memory store: call .withWorkingMemory() on the builder.',
      );
    }
    return createWorkingMemoryTools({ workingMemory, namespace: options?.namespace, logger });
  }

  /**
   * Every tool a user session gets: the memory tools (with `.withMemory()`) and the working-memory
   * tools bound to `session/<sessionId>` (with `.withWorkingMemory()`).
   */
  forSession(sessionId: string): Partial<MemoryTools & WorkingMemoryTools> {
    if (typeof sessionId !== 'string' || sessionId.trim() === '') {
      throw new ReverieError('INVALID_INPUT', 'tools.forSession(sessionId) needs the id of the session (a non-empty string).');
    }
    return {
      ...(this.services.memory === undefined ? {} : this.memory({ sessionId })),
      ...(this.services.workingMemory === undefined ? {} : this.workingMemory({ namespace: `session/${sessionId}` })),
    };
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
