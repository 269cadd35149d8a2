import { DEFAULT_IMPORTANCE, MAX_MEMORY_CONTENT_LENGTH, type MemoryEntry, type MemoryLineage, newId, tagSchema } from '@reverie/core';
import { lineageTurnRanges } from '@reverie/core/internal';
import type { DreamOperation } from '@reverie/dream-state';
import { unionTags } from '../memory-consolidation/merge-entries';
import { normaliseContent, stripRetentionTags } from '../memory-consolidation/normalise-content';
import type { PreferenceReply, ProposedPreference } from './preference-reply';
import { permissionKeyword } from './requires-user-permission';

/** Every inferred preference carries this tag. */
export const INFERRED_TAG = 'inferred';
/** Metadata set on every inferred preference: `source=inferred`. */
export const SOURCE_KEY = 'source';
/** Metadata `requires_user_permission=true`: the assistant asks before acting on the preference. */
export const PERMISSION_KEY = 'requires_user_permission';

export type PreferenceStrength = 'strong' | 'mild' | 'casual';

/**
 * SPEC D11: how many distinct user turns must show a preference of each strength. Strong,
 * repeated irritation counts at once; mild pushback needs two turns; a casual remark three.
 */
export const EVIDENCE_THRESHOLDS: Readonly<Record<PreferenceStrength, number>> = { strong: 1, mild: 2, casual: 3 };

/** A retention word used as a tag or topic, with or without its brackets (SPEC D17). */
const RETENTION_WORD = /^\[?(?:skip|correction|permanent|durable|ephemeral)\]?$/i;
/** Longest topic kept (it goes into metadata). */
const MAX_TOPIC_CHARS = 100;

/** One entry the run will write: a new preference, or one on record seen again. */
interface LedgerRecord {
  entry: MemoryEntry;
  /** The entry as read from the store; undefined for a preference new in this run. */
  base: MemoryEntry | undefined;
  /** Every user turn cited for it in this run. */
  evidence: Set<number>;
}

/**
 * SPEC D11, D17, B4: the guards every reply of the preference-inference pass goes through,
 * item by item, and the operations that survive them.
 *
 * - Evidence counts only distinct seqs of user turns that were sent in this run; other numbers
 *   are ignored and reported. A preference with fewer turns than its strength's threshold
 *   (strong 1, mild 2, casual 3) is refused, as is an unknown strength or empty content.
 * - Retention hints are stripped from content, topic and tags; a tag or topic that is only a
 *   retention word is dropped.
 * - `requires_user_permission=true` is set when the model flags it or when the host's keyword
 *   check (security, credentials, money) matches the content, topic or tags: the stricter wins.
 * - A preference whose normalised content equals one on record is not copied: the entry on record
 *   is reinforced (reinforcementCount + 1 per run, lastSeenAt now). One repeated within the run
 *   folds into the first.
 */
export class PreferenceLedger {
  readonly refusals: string[] = [];
  readonly notes: string[] = [];
  /** Normalised content → the preference on record. */
  private readonly onRecord = new Map<string, MemoryEntry>();
  /** Normalised content → what the run writes. */
  private readonly records = new Map<string, LedgerRecord>();
  private readonly stamp: string;

  constructor(
    preferences: readonly MemoryEntry[],
    private readonly options: {
      category: string;
      now: Date;
      userSeqs: ReadonlySet<number>;
      /** SPEC B10: the session of each user turn sent, which a new preference's lineage names. */
      sessionOf?: ReadonlyMap<number, string>;
      runId?: string;
    },
  ) {
    this.stamp = options.now.toISOString();
    for (const entry of preferences) {
      const key = normaliseContent(entry.content);
      if (key !== '' && !this.onRecord.has(key)) this.onRecord.set(key, entry);
    }
  }

  /** Checks the reply item by item and records what passes. */
  review(reply: PreferenceReply): void {
    reply.preferences.forEach((item, index) => this.reviewItem(item, `preference ${index + 1}`));
  }

  /** One save per new or reinforced preference. */
  operations(): DreamOperation[] {
    return [...this.records.values()].map((record): DreamOperation => {
      const turns = [...record.evidence]
        .sort((a, b) => a - b)
        .map((seq) => `#${seq}`)
        .join(', ');
      if (record.base) {
        return {
          op: 'memory.save',
          entry: record.entry,
          expectUpdatedAt: record.base.updatedAt,
          reason: `preference-inference: ${record.entry.id} seen again in user turn(s) ${turns}; reinforced ${record.base.reinforcementCount}× → ${record.entry.reinforcementCount}×`,
        };
      }
      record.entry.lineage = this.lineageOf(record.evidence);
      return {
        op: 'memory.save',
        entry: record.entry,
        expectUpdatedAt: null,
        reason: `preference-inference: new ${record.entry.metadata.strength ?? ''} preference from user turn(s) ${turns}`,
      };
    });
  }

  /** SPEC B10: a new preference comes from the user turns cited as its evidence. */
  private lineageOf(evidence: ReadonlySet<number>): MemoryLineage {
    const sessionOf = this.options.sessionOf ?? new Map<number, string>();
    const turns = lineageTurnRanges([...evidence].flatMap((seq) => (sessionOf.has(seq) ? [{ sessionId: sessionOf.get(seq)!, seq }] : [])));
    const { runId } = this.options;
    return {
      origin: {
        kind: 'session',
        at: this.stamp,
        ...(runId === undefined ? {} : { runId }),
        pass: 'preference-inference',
        ...(turns.length === 0 ? {} : { turns }),
      },
    };
  }

  /** How many new preferences and reinforced ones the run will write. */
  counts(): { created: number; reinforced: number } {
    let created = 0;
    for (const record of this.records.values()) if (!record.base) created++;
    return { created, reinforced: this.records.size - created };
  }

  private reviewItem(item: ProposedPreference, where: string): void {
    const refuse = (reason: string): void => {
      this.refusals.push(`${where} refused: ${reason}`);
    };
    const content = stripRetentionTags(item.content);
    if (content === '') return refuse('its content is empty');
    if (content.length > MAX_MEMORY_CONTENT_LENGTH) return refuse(`its content is longer than ${MAX_MEMORY_CONTENT_LENGTH} characters`);
    const quoted = JSON.stringify(content);
    if (!isStrength(item.strength)) return refuse(`${quoted}: strength ${JSON.stringify(item.strength)} is not strong, mild or casual`);

    const evidence = new Set<number>();
    const ignored = new Set<string>();
    for (const seq of item.evidence) {
      if (Number.isInteger(seq) && this.options.userSeqs.has(seq)) evidence.add(seq);
      else ignored.add(Number.isFinite(seq) ? `#${seq}` : 'a non-number');
    }
    if (ignored.size > 0) this.refusals.push(`${where}: evidence ${[...ignored].join(', ')} ignored: not a user turn sent in this run`);
    const needed = EVIDENCE_THRESHOLDS[item.strength];
    if (evidence.size < needed) {
      return refuse(`${quoted}: a ${item.strength} preference needs ${needed} distinct user turn(s) as evidence, got ${evidence.size}`);
    }

    const topic = this.cleanTopic(item.topic);
    const tags = this.cleanTags(item.tags, where);
    const keyword = permissionKeyword([content, topic ?? '', ...tags].join('\n'));
    const needsPermission = item.requiresUserPermission || keyword !== undefined;
    if (keyword !== undefined && !item.requiresUserPermission) {
      this.notes.push(`${where}: requires_user_permission set by the host (keyword ${JSON.stringify(keyword)})`);
    }

    const key = normaliseContent(content);
    const planned = this.records.get(key);
    if (planned) {
      for (const seq of evidence) planned.evidence.add(seq);
      planned.entry.tags = unionTags(planned.entry.tags, planned.base ? [] : tags);
      if (needsPermission) planned.entry.metadata = { ...planned.entry.metadata, [PERMISSION_KEY]: 'true' };
      this.notes.push(`${where}: repeats a preference of this reply; folded into it`);
      return;
    }
    const base = this.onRecord.get(key);
    if (base) {
      this.records.set(key, {
        base,
        evidence,
        entry: {
          ...base,
          content: stripRetentionTags(base.content) || base.content,
          lastSeenAt: this.stamp,
          updatedAt: this.stamp,
          reinforcementCount: base.reinforcementCount + 1,
          metadata: needsPermission ? { ...base.metadata, [PERMISSION_KEY]: 'true' } : base.metadata,
        },
      });
      this.notes.push(`${where}: already on record as ${base.id}; reinforced instead of copied`);
      return;
    }
    const entry: MemoryEntry = {
      id: newId(),
      content,
      category: this.options.category,
      tags: unionTags([INFERRED_TAG], tags),
      createdAt: this.stamp,
      updatedAt: this.stamp,
      lastSeenAt: this.stamp,
      reinforcementCount: 1,
      importance: DEFAULT_IMPORTANCE,
      metadata: {
        [SOURCE_KEY]: 'inferred',
        strength: item.strength,
        ...(topic === undefined ? {} : { topic }),
        ...(needsPermission ? { [PERMISSION_KEY]: 'true' } : {}),
      },
    };
    this.records.set(key, { entry, base: undefined, evidence });
  }

  /** The topic without retention hints, one line, at most `MAX_TOPIC_CHARS`; undefined when nothing is left. */
  private cleanTopic(topic: string | undefined): string | undefined {
    if (topic === undefined || RETENTION_WORD.test(topic)) return undefined;
    const clean = stripRetentionTags(topic).replace(/\s+/g, ' ').trim().slice(0, MAX_TOPIC_CHARS);
    return clean === '' || RETENTION_WORD.test(clean) ? undefined : clean;
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

function isStrength(value: string): value is PreferenceStrength {
  return Object.hasOwn(EVIDENCE_THRESHOLDS, value);
}
