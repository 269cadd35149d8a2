import {
  type FeedbackDraft,
  InMemoryFeedbackStore,
  InMemoryLongTermMemory,
  ManualClock,
  type MemoryDraft,
  type MemoryEntry,
} from '@reverie/core';
import { type HarnessStores, harnessDir, PassHarness } from '../../__fixtures__/pass-harness';
import type { ModelGatewayLike, PassContext } from '../../../engine/dream-types';
import { normaliseContent } from '../normalise-content';

export const DAY = 86_400_000;

/** An in-memory memory and feedback store on a manual clock, with a temp data directory. */
export class ConsolidationHarness extends PassHarness {
  readonly memory = new InMemoryLongTermMemory({ clock: this.clock });
  readonly feedback = new InMemoryFeedbackStore({ clock: this.clock });

  static async create(): Promise<ConsolidationHarness> {
    return new ConsolidationHarness(await harnessDir('reverie-consolidation-'), new ManualClock('2026-03-01T09:00:00.000Z'));
  }

  protected stores(): HarnessStores {
    return { memory: this.memory, feedback: this.feedback };
  }

  override context(gateway: ModelGatewayLike | undefined, withFeedback = true): PassContext {
    return this.contextWithout(gateway, withFeedback ? [] : ['feedback']);
  }

  /** Saves an entry as if observed at `at` (the clock is set there, then left there). */
  async add(draft: MemoryDraft, at?: string): Promise<MemoryEntry> {
    if (at !== undefined) this.clock.set(at);
    return this.memory.save(draft);
  }

  async addFeedback(draft: FeedbackDraft): Promise<void> {
    await this.feedback.record(draft);
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
