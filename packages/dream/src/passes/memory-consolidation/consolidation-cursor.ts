import { createHash } from 'node:crypto';
import { type MemoryEntry } from '@reverie/core';
import { ownValue, timestampMs } from '@reverie/core/internal';
import type { ConsolidationCursor, CursorPosition, DreamCursorStore, SeenUpdate } from '@reverie/dream-state';

/** A short hash of what the model would see of an entry: its content, category and tags. */
export function wordingFingerprint(entry: Pick<MemoryEntry, 'content' | 'category' | 'tags'>): string {
  return createHash('sha1')
    .update(JSON.stringify([entry.content, entry.category, entry.tags]))
    .digest('base64url')
    .slice(0, 12);
}

/** Orders positions by time (as instants), then by id. */
export function comparePositions(a: CursorPosition, b: CursorPosition): number {
  return timestampMs(a.at) - timestampMs(b.at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function entryPosition(entry: Pick<MemoryEntry, 'id' | 'updatedAt'>): CursorPosition {
  return { at: entry.updatedAt, id: entry.id };
}

/**
 * True when the entry changed since the cursor: newer than its position (unless `byPosition` is
 * false, when a change feed already said it changed), not the pass's own write, and worded
 * differently from when the pass last considered it.
 */
export function changedSince(cursor: ConsolidationCursor, entry: MemoryEntry, byPosition = true): boolean {
  if (byPosition && cursor.entries && comparePositions(entryPosition(entry), cursor.entries) <= 0) return false;
  const written = ownValue(cursor.written, entry.id);
  if (written !== undefined && timestampMs(written) === timestampMs(entry.updatedAt)) return false;
  const seen = cursor.seen.get(entry.id);
  return seen === undefined || seen !== wordingFingerprint(entry);
}

/**
 * The cursor after a run: `entries` moved to `through` (never backwards), own writes recorded,
 * and writes the new position already covers forgotten, so `written` stays small. `seen` is
 * left as it is: its changes are written with the cursor (`ConsolidationCursorFile.write`).
 */
export function advanceCursor(
  cursor: ConsolidationCursor,
  change: {
    through?: CursorPosition | undefined;
    written: ReadonlyArray<Pick<MemoryEntry, 'id' | 'updatedAt'>>;
    feedback?: CursorPosition | undefined;
    /** The change-feed cursors after this run; unchanged when absent. */
    feed?: string | undefined;
    prepass?: string | undefined;
    /** The retry queue after this run (see `nextRetries`); unchanged when absent. */
    retry?: ConsolidationCursor['retry'];
  },
): ConsolidationCursor {
  const entries = latest(cursor.entries, change.through);
  const merged = new Map([
    ...Object.entries(cursor.written),
    ...change.written.map((entry): [string, string] => [entry.id, entry.updatedAt]),
  ]);
  const written = Object.fromEntries([...merged].filter(([id, at]) => entries === undefined || comparePositions({ at, id }, entries) > 0));
  const feedback = latest(cursor.feedback, change.feedback);
  const feed = change.feed ?? cursor.feed;
  const prepass = change.prepass ?? cursor.prepass;
  return {
    version: 1,
    ...(entries ? { entries } : {}),
    ...(feed !== undefined ? { feed } : {}),
    ...(prepass !== undefined ? { prepass } : {}),
    written,
    ...(feedback ? { feedback } : {}),
    seen: cursor.seen,
    ...(cursor.seenFiles ? { seenFiles: cursor.seenFiles } : {}),
    retry: change.retry ?? cursor.retry,
  };
}

/**
 * The retry queue after a run (SPEC B11). Items refused again get one more attempt, due after
 * `retryAfterHours` × 2^(attempts − 1); past `maxRetries` attempts they are given up (listed in
 * `givenUp`). Items that were due and shown but not refused again, and items no longer live,
 * leave the queue. Pure.
 */
export function nextRetries(
  queue: ConsolidationCursor['retry'],
  run: { refused: ReadonlySet<string>; shown: ReadonlySet<string>; isLive: (id: string) => boolean; now: Date },
  options: { maxRetries: number; retryAfterHours: number },
): { retry: ConsolidationCursor['retry']; givenUp: string[] } {
  const retry = new Map<string, ConsolidationCursor['retry'][string]>();
  const givenUp: string[] = [];
  for (const [id, state] of Object.entries(queue)) {
    if (!run.isLive(id) || run.refused.has(id) || run.shown.has(id)) continue;
    retry.set(id, state);
  }
  for (const id of run.refused) {
    if (!run.isLive(id)) continue;
    const attempts = (ownValue(queue, id)?.attempts ?? 0) + 1;
    if (attempts > options.maxRetries) {
      givenUp.push(id);
      continue;
    }
    const wait = options.retryAfterHours * 3_600_000 * 2 ** (attempts - 1);
    retry.set(id, { attempts, after: new Date(run.now.getTime() + wait).toISOString() });
  }
  return { retry: Object.fromEntries(retry), givenUp };
}

/** The queued items due for another attempt at `now`, oldest due first. Pure. */
export function dueRetries(queue: ConsolidationCursor['retry'], now: Date): string[] {
  return Object.entries(queue)
    .filter(([, state]) => timestampMs(state.after) <= now.getTime())
    .sort(([a, x], [b, y]) => timestampMs(x.after) - timestampMs(y.after) || (a < b ? -1 : 1))
    .map(([id]) => id);
}

function latest(a: CursorPosition | undefined, b: CursorPosition | undefined): CursorPosition | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return comparePositions(a, b) >= 0 ? a : b;
}

/** One pass's consolidation cursor in a state store's cursors (see `DreamCursorStore.readConsolidation`). */
export function consolidationCursorOf(cursors: DreamCursorStore, pass: string) {
  return {
    read: () => cursors.readConsolidation(pass),
    write: (cursor: ConsolidationCursor, before: ConsolidationCursor, update?: SeenUpdate) =>
      cursors.writeConsolidation(pass, cursor, before, update),
  };
}
