import {
  Bm25Index,
  DEFAULT_IMPORTANCE,
  EPISODE_TAG,
  isUnderPrefix,
  MAX_MEMORY_CONTENT_LENGTH,
  type MemoryEntry,
  type MemoryLineage,
  indexMemoryEntry,
  mergeSubjectTimeMetadata,
  newId,
  SUBJECT_END_KEY,
  SUBJECT_POINT_KEY,
  SUBJECT_START_KEY,
  tagSchema,
} from '@reverie/core';
import { lineageTurnRanges, parsePartialDate } from '@reverie/core/internal';
import type { DreamOperation } from '@reverie/dream-state';
import { factTokens, missingFacts } from '../memory-consolidation/fact-tokens';
import { unionTags } from '../memory-consolidation/merge-entries';
import { duplicateKey, normaliseContent, stripRetentionTags } from '../memory-consolidation/normalise-content';
import type { EpisodeReply, ProposedEpisode } from './episode-reply';

/** Categories under this prefix belong to the host's own bookkeeping: never shown, never reinforced. */
const SYSTEM_CATEGORY = '_system';
/** A retention word used as a tag, with or without its brackets (SPEC D17). */
const RETENTION_WORD = /^\[?(?:skip|correction|permanent|durable|ephemeral)\]?$/i;
/**
 * Metadata on every episode the pass writes: the last conversation-log seq its count includes. A
 * run that reads the same turns again (a crash before the cursor moved) does not count them twice.
 */
export const EPISODE_COUNTED_THROUGH_KEY = 'episodeCountedThroughSeq';
/** How far after "now" an episode may start (time zones ahead of UTC), in ms. */
const FUTURE_TOLERANCE_MS = 86_400_000;

/** One entry the run will write: a new episode or a reinforced one. */
interface LedgerRecord {
  /** What will be saved. */
  entry: MemoryEntry;
  /** The entry as read from the store; undefined for an episode new in this run. */
  base: MemoryEntry | undefined;
  /** Distinct sessions of this run that told of it: each counts as one observation. */
  sessions: Set<string>;
}

/** What one call showed the model, for the guards. */
export interface CallScope {
  /** 1-based number of the call in the run (for messages). */
  call: number;
  /** The sessions whose turns were sent in this call. */
  sessions: ReadonlySet<string>;
  /** The ids of the episodes shown in this call. */
  shown: ReadonlySet<string>;
  /** Per session sent in this call, the highest seq of its turns. */
  latestSeq?: ReadonlyMap<string, number>;
  /** SPEC B10: the turns sent in this call, which a new episode's lineage names. */
  turns?: ReadonlyArray<{ sessionId: string; seq: number }>;
}

type WhenCheck = { ok: true; metadata: Record<string, string> } | { ok: false; problem: string };

/**
 * SPEC D6, D17, B4: the episodes of one run, live and planned, and the guards every reply goes
 * through. Replies of several calls accumulate here, so an episode created by the first call
 * can be shown to (and revisited by) the next, and the same entry is never written twice.
 *
 * - A revisit must name an episode shown in the same call; it is reinforced (lastSeenAt = now,
 *   reinforcementCount + one per distinct session of this run that revisits it), not copied.
 *   Its wording changes only when the new text keeps every fact token of the recorded one and
 *   adds at least one; a rewrite that drops facts is refused (the reinforcement still counts).
 * - A new episode needs a valid `when` (partial ISO dates, start not after end, not in the
 *   future); it gets a new id, the pass's category, the `episode` tag, subject-time metadata,
 *   createdAt = lastSeenAt = now and one observation per session.
 * - A new episode whose normalised content and subject time equal a live entry's (or one
 *   planned earlier in the run) reinforces that entry instead: no copies.
 * - Every item must name sessions that were sent in its call; retention hints are stripped
 *   from content and tags, and tags that are only a retention word are dropped.
 */
export class EpisodeLedger {
  readonly refusals: string[] = [];
  readonly notes: string[] = [];
  private readonly live = new Map<string, MemoryEntry>();
  private readonly records = new Map<string, LedgerRecord>();
  /** `duplicateKey` → id, over live entries and the run's records. */
  private readonly byKey = new Map<string, string>();
  /** BM25 over the episodes a call may show (live ones under the category or tagged, and new ones). */
  private readonly index = new Bm25Index();
  private readonly stamp: string;
  private latestSeq: ReadonlyMap<string, number> = new Map();
  /** The turns sent so far in the run, per session (SPEC B10). */
  private readonly sentTurns = new Map<string, Array<{ sessionId: string; seq: number }>>();

  constructor(
    entries: readonly MemoryEntry[],
    private readonly options: { category: string; now: Date; throughSeq?: number; runId?: string },
  ) {
    this.stamp = options.now.toISOString();
    for (const entry of entries) {
      if (isUnderPrefix(entry.category, SYSTEM_CATEGORY)) continue;
      this.live.set(entry.id, entry);
      const key = duplicateKey(entry);
      if (key !== undefined && !this.byKey.has(key)) this.byKey.set(key, entry.id);
      if (this.isEpisode(entry)) indexMemoryEntry(this.index, entry);
    }
  }

  /** The episodes most similar to `text`, best first, at most `limit`, as the run currently sees them. */
  similar(text: string, limit: number): MemoryEntry[] {
    return this.index.search(text, { limit }).map((hit) => this.current(hit.id)!);
  }

  /** Checks one call's reply item by item and records what passes. */
  review(reply: EpisodeReply, scope: CallScope): void {
    this.latestSeq = scope.latestSeq ?? new Map();
    for (const turn of scope.turns ?? []) {
      const turns = this.sentTurns.get(turn.sessionId) ?? [];
      turns.push(turn);
      this.sentTurns.set(turn.sessionId, turns);
    }
    reply.episodes.forEach((item, index) => this.reviewItem(item, `call ${scope.call}, episode ${index + 1}`, scope));
  }

  /** The operations of the run: one save per new or reinforced entry. */
  operations(): DreamOperation[] {
    const operations: DreamOperation[] = [];
    for (const record of this.records.values()) {
      if (this.options.throughSeq !== undefined) {
        record.entry.metadata = { ...record.entry.metadata, [EPISODE_COUNTED_THROUGH_KEY]: String(this.options.throughSeq) };
      }
      const sessions = [...record.sessions].map((id) => JSON.stringify(id)).join(', ');
      if (record.base) {
        operations.push({
          op: 'memory.save',
          entry: record.entry,
          expectUpdatedAt: record.base.updatedAt,
          reason: `episode-extraction: ${record.entry.id} revisited in session(s) ${sessions}; reinforced ${record.base.reinforcementCount}× → ${record.entry.reinforcementCount}×`,
        });
      } else {
        record.entry.lineage = this.lineageOf(record.sessions);
        operations.push({
          op: 'memory.save',
          entry: record.entry,
          expectUpdatedAt: null,
          reason: `episode-extraction: new episode from session(s) ${sessions}`,
        });
      }
    }
    return operations;
  }

  /** SPEC B10: a new episode comes from the turns of its sessions sent in this run. */
  private lineageOf(sessions: ReadonlySet<string>): MemoryLineage {
    const turns = lineageTurnRanges([...sessions].flatMap((id) => this.sentTurns.get(id) ?? []));
    const { runId } = this.options;
    return {
      origin: {
        kind: 'session',
        at: this.stamp,
        ...(runId === undefined ? {} : { runId }),
        pass: 'episode-extraction',
        ...(turns.length === 0 ? {} : { turns }),
      },
    };
  }

  /** How many new episodes and reinforced entries the run will write. */
  counts(): { created: number; reinforced: number } {
    let created = 0;
    for (const record of this.records.values()) if (!record.base) created++;
    return { created, reinforced: this.records.size - created };
  }

  private reviewItem(item: ProposedEpisode, where: string, scope: CallScope): void {
    const refuse = (reason: string): void => {
      this.refusals.push(`${where} refused: ${reason}`);
    };
    const content = stripRetentionTags(item.content);
    if (content === '') return refuse('its content is empty');
    if (content.length > MAX_MEMORY_CONTENT_LENGTH) return refuse(`its content is longer than ${MAX_MEMORY_CONTENT_LENGTH} characters`);

    const sessions = [...new Set(item.sessionIds)];
    if (sessions.length === 0) return refuse('it names no session');
    const unknown = sessions.filter((id) => !scope.sessions.has(id));
    if (unknown.length > 0) return refuse(`session id(s) ${unknown.map((id) => JSON.stringify(id)).join(', ')} were not sent in this call`);

    const when = this.checkWhen(item.when);
    if (!when.ok) return refuse(when.problem);
    const tags = this.cleanTags(item.tags, where);

    if (item.revisits !== undefined) {
      if (!scope.shown.has(item.revisits) || this.current(item.revisits) === undefined) {
        return refuse(`it revisits ${JSON.stringify(item.revisits)}, which is not an episode shown in this call`);
      }
      this.reinforce(item.revisits, { sessions, content, metadata: when.metadata, tags }, where);
      return;
    }

    if (Object.keys(when.metadata).length === 0) return refuse('a new episode needs a date (when.point, or when.start and/or when.end)');
    const key = duplicateKey({ content, metadata: when.metadata });
    const twin = key === undefined ? undefined : this.byKey.get(key);
    if (twin !== undefined) {
      this.notes.push(`${where}: same content and date as ${twin}; reinforced instead of copied`);
      this.reinforce(twin, { sessions, content, metadata: when.metadata, tags }, where);
      return;
    }
    const entry: MemoryEntry = {
      id: newId(),
      content,
      category: this.options.category,
      tags: unionTags([EPISODE_TAG], tags),
      createdAt: this.stamp,
      updatedAt: this.stamp,
      lastSeenAt: this.stamp,
      reinforcementCount: sessions.length,
      importance: DEFAULT_IMPORTANCE,
      metadata: when.metadata,
    };
    this.records.set(entry.id, { entry, base: undefined, sessions: new Set(sessions) });
    this.track(entry);
  }

  /** Counts new sessions as observations, and takes the new wording, date and tags when they pass. */
  private reinforce(
    id: string,
    change: { sessions: readonly string[]; content: string; metadata: Record<string, string>; tags: readonly string[] },
    where: string,
  ): void {
    let record = this.records.get(id);
    if (!record) {
      const base = this.live.get(id)!;
      record = { entry: { ...base, content: stripRetentionTags(base.content) || base.content }, base, sessions: new Set() };
      this.records.set(id, record);
    }
    const entry = record.entry;
    if (this.byKey.get(duplicateKey(entry) ?? '') === id) this.byKey.delete(duplicateKey(entry)!);

    // Turns this entry's count already includes (read again after a crash) are not counted twice.
    const countedThrough = Number(record.base?.metadata[EPISODE_COUNTED_THROUGH_KEY] ?? Number.NEGATIVE_INFINITY);
    for (const session of change.sessions)
      if ((this.latestSeq.get(session) ?? Number.POSITIVE_INFINITY) > countedThrough) record.sessions.add(session);
    entry.reinforcementCount = (record.base?.reinforcementCount ?? 0) + record.sessions.size;
    entry.lastSeenAt = this.stamp;
    entry.updatedAt = this.stamp;

    if (normaliseContent(change.content) !== normaliseContent(entry.content)) {
      const missing = missingFacts([entry.content], change.content);
      if (missing.length > 0) {
        this.refusals.push(
          `${where}: rewrite of ${id} refused: it drops ${missing.map((fact) => JSON.stringify(fact)).join(', ')}; reinforced with its recorded wording`,
        );
      } else if (addsFacts(entry.content, change.content)) {
        entry.content = change.content;
      } else {
        this.notes.push(`${where}: rewording of ${id} adds no fact; its recorded wording is kept`);
      }
    }
    if (Object.keys(change.metadata).length > 0) {
      entry.metadata = { ...entry.metadata, ...mergeSubjectTimeMetadata([entry.metadata, change.metadata]) };
    }
    entry.tags = unionTags(entry.tags, change.tags);
    this.track(entry);
  }

  /** Re-indexes an entry after a change, for the duplicate check and for the next calls. */
  private track(entry: MemoryEntry): void {
    const key = duplicateKey(entry);
    if (key !== undefined && !this.byKey.has(key)) this.byKey.set(key, entry.id);
    if (this.isEpisode(entry) || this.index.has(entry.id)) indexMemoryEntry(this.index, entry);
  }

  private current(id: string): MemoryEntry | undefined {
    return this.records.get(id)?.entry ?? this.live.get(id);
  }

  private isEpisode(entry: MemoryEntry): boolean {
    return isUnderPrefix(entry.category, this.options.category) || entry.tags.includes(EPISODE_TAG);
  }

  /** Subject-time metadata from `when`: each date a valid partial ISO date, start not after end, nothing in the future. */
  private checkWhen(when: ProposedEpisode['when']): WhenCheck {
    const metadata: Record<string, string> = {};
    const spans: Array<{ start: number; end: number }> = [];
    for (const [name, key] of [
      ['point', SUBJECT_POINT_KEY],
      ['start', SUBJECT_START_KEY],
      ['end', SUBJECT_END_KEY],
    ] as const) {
      const value = when[name];
      if (value === undefined) continue;
      const span = parsePartialDate(value);
      if (!span)
        return {
          ok: false,
          problem: `when.${name} ${JSON.stringify(value)} is not an ISO date (YYYY, YYYY-MM, YYYY-MM-DD or a timestamp with a zone)`,
        };
      metadata[key] = value;
      spans.push(span);
    }
    const start = metadata[SUBJECT_START_KEY];
    const end = metadata[SUBJECT_END_KEY];
    if (start !== undefined && end !== undefined && parsePartialDate(start)!.start > parsePartialDate(end)!.end) {
      return { ok: false, problem: `when.start ${JSON.stringify(start)} is after when.end ${JSON.stringify(end)}` };
    }
    const earliest = Math.min(...spans.map((span) => span.start));
    if (spans.length > 0 && earliest > this.options.now.getTime() + FUTURE_TOLERANCE_MS) {
      return { ok: false, problem: 'it is dated in the future: only events that happened are episodes' };
    }
    return { ok: true, metadata };
  }

  /** Tags without retention hints; empty, hint-only and invalid tags are dropped (invalid ones reported). */
  private cleanTags(tags: readonly string[], where: string): string[] {
    const kept: string[] = [];
    for (const raw of tags) {
      const tag = stripRetentionTags(raw).trim();
      if (tag === '' || RETENTION_WORD.test(tag) || RETENTION_WORD.test(raw.trim())) continue;
      if (tagSchema.safeParse(tag).success) kept.push(tag);
      else this.refusals.push(`${where}: invalid tag ${JSON.stringify(raw)} dropped`);
    }
    return kept;
  }
}

/** True when `next` holds a fact token (name, number, date) that `previous` does not. */
function addsFacts(previous: string, next: string): boolean {
  const known = new Set(factTokens(previous).map((fact) => fact.toLowerCase()));
  return factTokens(next).some((fact) => !known.has(fact.toLowerCase()));
}
