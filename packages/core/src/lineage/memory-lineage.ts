import {
  type LineageAncestor,
  type LineageOrigin,
  type LineageTurns,
  MAX_LINEAGE_ANCESTORS,
  MAX_LINEAGE_EXCERPT,
  MAX_LINEAGE_PASSAGES,
  MAX_LINEAGE_TURN_RANGES,
  type MemoryLineage,
} from '../schemas/memory-lineage';
import type { MemoryEntry } from '../schemas/memory-entry';

type LineageSubject = Pick<MemoryEntry, 'id' | 'content'> & { lineage?: MemoryLineage | undefined };

/** When and by which run a merge or a supersession happened. */
export interface LineageStep {
  at: string;
  runId?: string | undefined;
  /** The dream pass that did it, for the origin of a merged entry. */
  pass?: string | undefined;
}

/** 8 hex characters of FNV-1a over the content: tells whether two recorded contents were the same. Pure. */
export function contentFingerprint(content: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < content.length; i++) {
    hash ^= content.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** The first words of a content, at most `MAX_LINEAGE_EXCERPT` characters, cut at a word with "…". Pure. */
export function contentExcerpt(content: string): string {
  const text = content.replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_LINEAGE_EXCERPT) return text;
  const cut = text.slice(0, MAX_LINEAGE_EXCERPT - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_LINEAGE_EXCERPT / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** What an ancestor record says of `entry`, which was merged into or superseded by `into`. Pure. */
export function ancestorRecord(
  entry: LineageSubject,
  relation: LineageAncestor['relation'],
  into: string,
  step: LineageStep,
): LineageAncestor {
  const origin = entry.lineage?.origin?.kind;
  return {
    id: entry.id,
    relation,
    into,
    at: step.at,
    ...(step.runId === undefined ? {} : { runId: step.runId }),
    excerpt: contentExcerpt(entry.content),
    fingerprint: contentFingerprint(entry.content),
    ...(origin === undefined ? {} : { origin }),
  };
}

/**
 * The ancestry of an entry that descends from `parents` on top of what it already recorded
 * (`base`): the parents first, then the earlier ancestors, then each parent's own ancestry, each
 * id once, at most `MAX_LINEAGE_ANCESTORS`. What does not fit is folded into `folded`, with the
 * parents' own folded counts, so a merge of merges never grows without bound. Pure.
 */
function descend(
  parents: ReadonlyArray<{ entry: LineageSubject; relation: LineageAncestor['relation'] }>,
  into: string,
  step: LineageStep,
  base: MemoryLineage | undefined,
): Pick<MemoryLineage, 'ancestors' | 'folded'> {
  const candidates = [
    ...parents.map(({ entry, relation }) => ancestorRecord(entry, relation, into, step)),
    ...(base?.ancestors ?? []),
    ...parents.flatMap(({ entry }) => entry.lineage?.ancestors ?? []),
  ];
  const seen = new Set<string>([into]);
  const ancestors: LineageAncestor[] = [];
  let folded = (base?.folded ?? 0) + parents.reduce((sum, { entry }) => sum + (entry.lineage?.folded ?? 0), 0);
  for (const candidate of candidates) {
    if (seen.has(candidate.id)) continue;
    seen.add(candidate.id);
    if (ancestors.length < MAX_LINEAGE_ANCESTORS) ancestors.push(candidate);
    else folded++;
  }
  return { ...(ancestors.length > 0 ? { ancestors } : {}), ...(folded > 0 ? { folded } : {}) };
}

/**
 * SPEC M3, B10: the passages a merge of `sources` keeps: each source's passages when it has some
 * (it was a merge itself), else its content; each text once, at most `MAX_LINEAGE_PASSAGES`. Pure.
 */
export function mergedPassages(sources: readonly LineageSubject[]): string[] {
  const passages = new Set<string>();
  for (const source of sources) {
    for (const passage of source.lineage?.passages ?? [source.content]) {
      if (passages.size === MAX_LINEAGE_PASSAGES) return [...passages];
      passages.add(passage);
    }
  }
  return [...passages];
}

/**
 * SPEC B10: the lineage of the entry `into` that a merge of `sources` writes: origin `merge`, the
 * sources as its parents, their whole text as its passages (`mergedPassages`). Pure.
 */
export function mergedLineage(sources: readonly LineageSubject[], into: string, step: LineageStep): MemoryLineage {
  const origin: LineageOrigin = {
    kind: 'merge',
    at: step.at,
    ...(step.runId === undefined ? {} : { runId: step.runId }),
    ...(step.pass === undefined ? {} : { pass: step.pass }),
  };
  return {
    origin,
    ...descend(
      sources.map((entry) => ({ entry, relation: 'merged' as const })),
      into,
      step,
      undefined,
    ),
    ...(sources.length > 0 ? { passages: mergedPassages(sources) } : {}),
  };
}

/**
 * SPEC B10: the lineage of `newer` once it superseded `older`: its own origin and ancestry kept,
 * `older` added as a parent (relation `superseded`) with the ancestry `older` carried. Pure.
 */
export function supersedingLineage(newer: LineageSubject, older: LineageSubject, step: LineageStep): MemoryLineage {
  return {
    ...(newer.lineage?.origin === undefined ? {} : { origin: newer.lineage.origin }),
    ...descend([{ entry: older, relation: 'superseded' }], newer.id, step, newer.lineage),
    ...(newer.lineage?.passages === undefined ? {} : { passages: newer.lineage.passages }),
  };
}

/**
 * SPEC B10: the lineage of `survivor` once the duplicates `absorbed` were deleted beside it (a
 * dream pass found it holds their facts): its own origin and ancestry kept, each duplicate added
 * as a parent (relation `merged`) with the ancestry it carried, and the passages of a merge of
 * the survivor and the duplicates (`mergedPassages`: the survivor's own text first), so recall
 * finds the survivor by the duplicates' wording as it found them. Pure.
 */
export function absorbedLineage(survivor: LineageSubject, absorbed: readonly LineageSubject[], step: LineageStep): MemoryLineage {
  if (absorbed.length === 0) return survivor.lineage ?? {};
  return {
    ...(survivor.lineage?.origin === undefined ? {} : { origin: survivor.lineage.origin }),
    ...descend(
      absorbed.map((entry) => ({ entry, relation: 'merged' as const })),
      survivor.id,
      step,
      survivor.lineage,
    ),
    passages: mergedPassages([survivor, ...absorbed]),
  };
}

/**
 * SPEC B10: the turns an entry was extracted from, as one range of log seqs per session (its
 * first to its last turn given), sessions in order of first appearance, at most
 * `MAX_LINEAGE_TURN_RANGES`. Pure.
 */
export function lineageTurnRanges(turns: Iterable<{ sessionId: string; seq: number }>): LineageTurns[] {
  const ranges = new Map<string, LineageTurns>();
  for (const { sessionId, seq } of turns) {
    const range = ranges.get(sessionId);
    if (range) {
      range.fromSeq = Math.min(range.fromSeq, seq);
      range.toSeq = Math.max(range.toSeq, seq);
    } else if (ranges.size < MAX_LINEAGE_TURN_RANGES) {
      ranges.set(sessionId, { sessionId, fromSeq: seq, toSeq: seq });
    }
  }
  return [...ranges.values()];
}
