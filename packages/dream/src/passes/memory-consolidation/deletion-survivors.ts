import type { MemoryEntry } from '@reverie/core';
import { analyseText, judgeFactPreservation, MIN_WORD_COVERAGE, normaliseTerms } from '@reverie/core/internal';
import type { ConsolidationItem } from './consolidation-item';
import type { CallReview, ProposedSave } from './review-reply';

/**
 * SPEC B10: what a deleted duplicate's evidence goes to. The model's `toDelete` names no entry a
 * deletion duplicates, so the host finds it: among what stays of the same call — an accepted save,
 * or a shown entry the reply leaves alone — the text that holds the deleted entry's facts.
 */
export interface Absorption {
  deleted: ConsolidationItem;
  into: { save: ProposedSave } | { item: ConsolidationItem };
}

type Noted = Pick<MemoryEntry, 'content' | 'createdAt' | 'lastSeenAt'>;

/**
 * How much of what `deleted` says `text` keeps (`judgeFactPreservation`'s coverage), when it
 * keeps every name, number, date and negation of it, every capitalised word opening one of its
 * sentences (maybe a name: "Maria shared…" is not held by "John shared…") and at least
 * `MIN_WORD_COVERAGE` of its words; `undefined` when it does not. What `text` says besides is not
 * counted: a survivor may say more than the duplicate did. The days `deleted` was noted anchor
 * its relative times. Pure.
 */
export function heldShare(deleted: Noted, text: string): number | undefined {
  const knownDates = [...new Set([deleted.createdAt, deleted.lastSeenAt].map((at) => at.slice(0, 10)))];
  const judgement = judgeFactPreservation([deleted.content], text, { knownDates });
  const { names, numbers, dates, negations } = judgement.missing;
  if (names.length + numbers.length + dates.length + negations.length > 0) return undefined;
  const kept = new Set(analyseText(text).terms.map((term) => term.key));
  if (analyseText(deleted.content).openers.some((key) => !kept.has(key))) return undefined;
  return judgement.coverage >= MIN_WORD_COVERAGE ? judgement.coverage : undefined;
}

/**
 * A candidate that shares less than this share of a deleted entry's normalised terms cannot hold
 * its facts (`heldShare` needs every name, number and date and most words): it is not judged. A
 * quarter, well below what `heldShare` asks, so that the cheap test never turns away a survivor.
 */
const MIN_SHARED_TERMS = 0.25;

/**
 * The survivor of each outright deletion of an admitted call (SPEC B10: "never lose a memory"):
 * the candidate that holds most of the deleted entry's facts (`heldShare`), accepted saves before
 * untouched shown entries on a tie; a deletion nothing holds keeps no survivor (noise is deleted
 * as before, with its lineage gone with it). Candidates are the call's accepted saves and the
 * shown entries that are neither a save's source, deleted, nor in a supersession; only those
 * sharing `MIN_SHARED_TERMS` of its terms are judged. Pure.
 */
export function deletionSurvivors(
  review: Pick<CallReview, 'saves' | 'deletions' | 'supersessions'>,
  shown: Iterable<ConsolidationItem>,
): Absorption[] {
  if (review.deletions.length === 0) return [];
  const busy = new Set([
    ...review.saves.flatMap((save) => save.sources.map((source) => source.id)),
    ...review.deletions.map((item) => item.id),
    ...review.supersessions.flatMap((pair) => [pair.older.id, pair.newer.id]),
  ]);
  const candidates: Array<{ text: string; into: Absorption['into'] }> = [
    ...review.saves.filter((save) => save.sources.length > 0).map((save) => ({ text: save.content, into: { save } })),
    ...[...shown].filter((item) => !busy.has(item.id)).map((item) => ({ text: item.view.content, into: { item } })),
  ];
  const terms = candidates.map((candidate) => new Set(normaliseTerms(candidate.text)));
  const absorptions: Absorption[] = [];
  for (const deleted of review.deletions) {
    const own = [...new Set(normaliseTerms(deleted.view.content))];
    let best: { share: number; into: Absorption['into'] } | undefined;
    for (const [index, candidate] of candidates.entries()) {
      const shared = own.filter((key) => terms[index]!.has(key)).length;
      if (own.length === 0 || shared < MIN_SHARED_TERMS * own.length) continue;
      const share = heldShare(deleted.view, candidate.text);
      if (share !== undefined && (best === undefined || share > best.share)) best = { share, into: candidate.into };
    }
    if (best) absorptions.push({ deleted, into: best.into });
  }
  return absorptions;
}
