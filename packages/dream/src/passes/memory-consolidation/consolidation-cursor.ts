import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '@reverie/file-store';
import { PassCursor } from '../../cursors/pass-cursor';
import { cursorsDir } from '../../runs/run-paths';
import { idSchema, isValidId, type MemoryEntry, timestampMs, timestampSchema } from '@reverie/core';
import { z } from 'zod';

const positionSchema = z.object({ at: timestampSchema, id: z.string() });

/**
 * A record of short strings keyed by entry id, checked in one plain loop: `seen` holds one key per
 * entry ever considered (100,000 at 100k entries), and validating each key with a schema made
 * reading the cursor cost more than the rest of an incremental run (SPEC B12).
 */
const fingerprintsSchema = z.custom<Record<string, string>>(
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    for (const key in value) if (!isValidId(key) || typeof (value as Record<string, unknown>)[key] !== 'string') return false;
    return true;
  },
  { message: 'seen must map entry ids to fingerprints' },
);
export type CursorPosition = z.infer<typeof positionSchema>;

/**
 * SPEC D18, B1: what the pass remembers between runs, in
 * `_system/dreams/cursors/memory-consolidation.json`, written only after a run was applied.
 */
export const consolidationCursorSchema = z.object({
  version: z.literal(1),
  /** `updatedAt` (and id, for ties) of the newest entry already considered. */
  entries: positionSchema.optional(),
  /**
   * SPEC B12: the memory store's change-feed cursor after the last change the model step
   * considered. With it, a run reads what changed instead of listing every entry.
   */
  feed: z.string().optional(),
  /** The change-feed cursor of the deterministic pre-pass when no model is configured. */
  prepass: z.string().optional(),
  /**
   * Entries the pass wrote itself after the model saw their sources, with the `updatedAt` the
   * store gave them: newer than `entries`, yet not a change to review again. An entry changed by
   * anyone since has another `updatedAt` and counts as changed.
   */
  written: z.record(idSchema, timestampSchema).default({}),
  /** Timestamp (and id) of the newest feedback signal already shown to the model. */
  feedback: positionSchema.optional(),
  /**
   * The wording (content, category, tags) of every live entry already considered, as a short
   * hash. An entry rewritten by something that leaves its wording alone — the importance-decay
   * pass, a promotion — has a newer `updatedAt` but is not a change worth a model call (B1).
   */
  seen: fingerprintsSchema.default({}),
  /**
   * Items whose merge or rewrite the guards refused for a reason the model can fix: offered to
   * the model again once `after` has passed, at most `maxRetries` times (SPEC B11).
   */
  retry: z.record(z.string(), z.object({ attempts: z.number().int().min(1), after: timestampSchema })).default({}),
});
export type ConsolidationCursor = z.output<typeof consolidationCursorSchema>;

/** The cursor before any run. Frozen: `advanceCursor` copies a frozen `seen` instead of updating it. */
export const EMPTY_CURSOR: ConsolidationCursor = Object.freeze({ version: 1, written: Object.freeze({}), seen: Object.freeze({}), retry: Object.freeze({}) }) as ConsolidationCursor;

/** A short hash of what the model would see of an entry: its content, category and tags. */
export function wordingFingerprint(entry: Pick<MemoryEntry, 'content' | 'category' | 'tags'>): string {
  return createHash('sha1').update(JSON.stringify([entry.content, entry.category, entry.tags])).digest('base64url').slice(0, 12);
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
  const written = cursor.written[entry.id];
  if (written !== undefined && timestampMs(written) === timestampMs(entry.updatedAt)) return false;
  return cursor.seen[entry.id] !== wordingFingerprint(entry);
}

/**
 * The cursor after a run: `entries` moved to `through` (never backwards), own writes recorded,
 * and writes the new position already covers forgotten, so `written` stays small. With `gone`
 * (a change feed), `cursor.seen` is updated in place and shared with the result.
 */
export function advanceCursor(
  cursor: ConsolidationCursor,
  change: {
    through?: CursorPosition | undefined;
    written: ReadonlyArray<Pick<MemoryEntry, 'id' | 'updatedAt'>>;
    feedback?: CursorPosition | undefined;
    /**
     * Entries considered by this run, and which entries are still live (to forget the rest):
     * every live id when the run listed them, or the ids a change feed reported deleted.
     */
    seen?: { entries: ReadonlyArray<Pick<MemoryEntry, 'id' | 'content' | 'category' | 'tags'>>; live?: ReadonlySet<string>; gone?: ReadonlySet<string> };
    /** The change-feed cursors after this run; unchanged when absent. */
    feed?: string | undefined;
    prepass?: string | undefined;
    /** The retry queue after this run (see `nextRetries`); unchanged when absent. */
    retry?: ConsolidationCursor['retry'];
  },
): ConsolidationCursor {
  const entries = latest(cursor.entries, change.through);
  const written: Record<string, string> = {};
  for (const [id, at] of Object.entries({ ...cursor.written, ...Object.fromEntries(change.written.map((entry) => [entry.id, entry.updatedAt])) })) {
    if (entries === undefined || comparePositions({ at, id }, entries) > 0) written[id] = at;
  }
  const feedback = latest(cursor.feedback, change.feedback);
  let seen: Record<string, string>;
  const live = change.seen?.live;
  if (live) {
    seen = {};
    for (const id in cursor.seen) if (live.has(id)) seen[id] = cursor.seen[id]!;
  } else {
    // With a change feed only the deleted ids are known. The record is updated in place: it holds
    // one key per entry, and copying it would cost more than the rest of the run (B12).
    seen = Object.isFrozen(cursor.seen) ? { ...cursor.seen } : cursor.seen;
    for (const id of change.seen?.gone ?? []) delete seen[id];
  }
  for (const entry of change.seen?.entries ?? []) seen[entry.id] = wordingFingerprint(entry);
  const feed = change.feed ?? cursor.feed;
  const prepass = change.prepass ?? cursor.prepass;
  return {
    version: 1,
    ...(entries ? { entries } : {}),
    ...(feed !== undefined ? { feed } : {}),
    ...(prepass !== undefined ? { prepass } : {}),
    written,
    ...(feedback ? { feedback } : {}),
    seen,
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
  const retry: ConsolidationCursor['retry'] = {};
  const givenUp: string[] = [];
  for (const [id, state] of Object.entries(queue)) {
    if (!run.isLive(id) || run.refused.has(id) || run.shown.has(id)) continue;
    retry[id] = state;
  }
  for (const id of run.refused) {
    if (!run.isLive(id)) continue;
    const attempts = (queue[id]?.attempts ?? 0) + 1;
    if (attempts > options.maxRetries) {
      givenUp.push(id);
      continue;
    }
    const wait = options.retryAfterHours * 3_600_000 * 2 ** (attempts - 1);
    retry[id] = { attempts, after: new Date(run.now.getTime() + wait).toISOString() };
  }
  return { retry, givenUp };
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

/**
 * Where the cursor lives: `_system/dreams/cursors/memory-consolidation.json` for the small part,
 * and `memory-consolidation.seen.json` beside it for `seen`, which holds one fingerprint per entry
 * ever considered. The small part is validated; `seen` is only checked to be an object (a wrong
 * value can only make an entry count as changed), and is rewritten only when it changed. The
 * small part is written first: a crash in between leaves old fingerprints, which can only make
 * an entry count as changed, never hide a change.
 */
export class ConsolidationCursorFile {
  private readonly main: PassCursor<ConsolidationCursor>;
  private readonly seenFile: string;

  constructor(dataPath: string, pass: string) {
    this.main = new PassCursor(dataPath, pass, consolidationCursorSchema);
    this.seenFile = join(cursorsDir(dataPath), `${pass}.seen.json`);
  }

  async read(): Promise<ConsolidationCursor> {
    const main = (await this.main.read()) ?? { ...EMPTY_CURSOR, seen: {} };
    const seen = await readFile(this.seenFile, 'utf8').then(
      (text) => JSON.parse(text) as unknown,
      () => undefined,
    ).catch(() => undefined);
    const stored = typeof seen === 'object' && seen !== null && !Array.isArray(seen) ? (seen as Record<string, string>) : undefined;
    // Cursors written before the split kept `seen` in the main file.
    return { ...main, seen: stored ?? main.seen };
  }

  /** Writes what changed since `before` (the cursor as read). */
  async write(cursor: ConsolidationCursor, before: ConsolidationCursor, seenChanged: boolean): Promise<void> {
    const { seen, ...small } = cursor;
    const { seen: _, ...smallBefore } = before;
    const legacy = !(await exists(this.seenFile)) && Object.keys(before.seen).length > 0;
    if (JSON.stringify(small) !== JSON.stringify(smallBefore) || legacy) await this.main.write({ ...small, seen: {} });
    if (seenChanged || legacy) await writeFileAtomic(this.seenFile, JSON.stringify(seen));
  }
}

async function exists(file: string): Promise<boolean> {
  return readFile(file).then(
    () => true,
    () => false,
  );
}
