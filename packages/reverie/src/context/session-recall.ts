import type { MemoryEntry } from '@reverie/core';
import type { RecordedTurn } from '../conversation/conversation-memory';
import type { HeldEntry } from './rank-session-memory';

/** Entries one session holds at most; the least recently recalled leave first. */
export const MAX_SESSION_ENTRIES = 64;

/**
 * SPEC M11: what one session has recalled so far — each entry with the turns that recalled it —
 * and which of them it has been shown (the delta rule: an entry is new to the session once).
 */
export class SessionRecall {
  private readonly held = new Map<string, HeldEntry>();
  /** The session's turn count in this process. */
  turn = 0;
  /** Who speaks in the session, as its last turn said (facts are taken from user sessions only). */
  kind: 'user' | 'patrol' | 'subagent' = 'user';
  /** The user turns since the last reply: the exchange the next reply completes. */
  exchange: RecordedTurn[] = [];

  /** Whether the session has recalled this entry before. */
  has(id: string): boolean {
    return this.held.has(id);
  }

  /**
   * Records what turn `turn` recalled, best first, and returns the ids new to the session. Past
   * `MAX_SESSION_ENTRIES` the entries recalled least recently are let go.
   */
  recall(entries: readonly MemoryEntry[], turn: number): string[] {
    const fresh: string[] = [];
    for (const entry of entries) {
      const known = this.held.get(entry.id);
      if (known) {
        this.held.delete(entry.id);
        this.held.set(entry.id, { entry, firstTurn: known.firstTurn, lastTurn: turn });
      } else {
        this.held.set(entry.id, { entry, firstTurn: turn, lastTurn: turn });
        fresh.push(entry.id);
      }
    }
    while (this.held.size > MAX_SESSION_ENTRIES) this.held.delete(this.held.keys().next().value!);
    return fresh;
  }

  /** The held entries, in the order they were last recalled. */
  entries(): HeldEntry[] {
    return [...this.held.values()];
  }

  /** Puts the current version of held entries in place, and lets go of those that no longer hold (`undefined`). */
  refresh(current: ReadonlyMap<string, MemoryEntry | undefined>): void {
    for (const [id, entry] of current) {
      const known = this.held.get(id);
      if (!known) continue;
      if (entry === undefined) this.held.delete(id);
      else known.entry = entry;
    }
  }
}
