import { isUnderPrefix, type MemoryEntry, SUBJECT_POINT_KEY, timestampMs } from '@reverie/core';
import type { ConsolidationItem } from './consolidation-item';
import type { ConsolidationReply } from './consolidation-reply';
import { protectedHome, protectionOf, type ReviewRules } from './review-reply';

/** A supersession that passed the guards of its call: `newer` replaces `older` (SPEC B9). */
export interface ProposedSupersession {
  older: ConsolidationItem;
  newer: ConsolidationItem;
  /**
   * The newer entry keeps at least `SAME_SUBJECT_COVERAGE` of the older one's terms: it speaks of
   * the same thing. A looser pair takes a fact out of recall on weaker evidence and counts
   * against the run's budget of outright deletions.
   */
  verified: boolean;
}

/** The share of the older entry's terms a newer one must keep for its supersession to go unbudgeted. */
export const SAME_SUBJECT_COVERAGE = 0.5;

/**
 * SPEC B9, B11: the guards of a reply's `toSupersede`, one pair at a time, after its saves and
 * deletions were reviewed (`busy`: the ids an accepted save replaces or an accepted deletion
 * removes). A pair is accepted only when
 *
 * - both ids were shown in this call, differ, and are single entries (a group of duplicates is
 *   merged by the host first: the pair is offered again on a later run);
 * - neither is being merged, rewritten or deleted by the same reply;
 * - the newer entry was first noted no earlier than the older one, and the older one was not
 *   observed again after the newer one was first noted (it still held then);
 * - they are not two dated moments (both with `subject.point`: events happen, they do not replace
 *   each other);
 * - the host finds what they say related (`rules.relatedByText`: BM25 neighbours, shared terms
 *   or embeddings — the relation merges need, less the shared category: no fact check follows);
 * - a protected older entry is replaced only by an entry under its own home (as a protected merge source);
 * - the older entry is replaced once, and no entry is both replaced and a replacement in one
 *   reply (no chains, no cycles: every replaced fact's successor holds).
 *
 * A pair whose newer entry keeps less than `SAME_SUBJECT_COVERAGE` of the older one's terms is
 * accepted unverified: the pass budgets it as an outright deletion.
 *
 * Everything refused is reported with its reason; nothing about the entries' wording is asked of
 * the model, so there is no fact check. Pure.
 */
export function reviewSupersessions(
  pairs: ConsolidationReply['toSupersede'],
  shown: ReadonlyMap<string, ConsolidationItem>,
  busy: ReadonlySet<string>,
  context: { call: number },
  rules: Pick<ReviewRules, 'protection' | 'relatedByText' | 'coverage'>,
): { supersessions: ProposedSupersession[]; refusals: string[]; retry: string[] } {
  const refusals: string[] = [];
  const retry: string[] = [];
  const supersessions: ProposedSupersession[] = [];
  const successorOf = new Map<string, string>();
  const successors = new Set<string>();
  pairs.forEach((pair, index) => {
    const refuse = (reason: string) => refusals.push(`call ${context.call}: toSupersede item ${index + 1} (${pair.olderId} → ${pair.newerId}) refused: ${reason}`);
    const older = shown.get(pair.olderId);
    const newer = shown.get(pair.newerId);
    if (!older || !newer) return refuse(`${!older ? pair.olderId : pair.newerId} was not shown in this call`);
    if (older.id === newer.id) return refuse('an entry cannot replace itself');
    const group = [older, newer].find((item) => item.merged !== undefined);
    if (group) {
      retry.push(older.id, newer.id);
      return refuse(`${group.id} stands for duplicates the host merges first; offered again on a later run`);
    }
    const taken = [older, newer].find((item) => busy.has(item.id));
    if (taken) return refuse(`${taken.id} is merged, rewritten or deleted by the same reply`);
    const problem = orderProblem(older.view, newer.view);
    if (problem) return refuse(problem);
    if (older.view.metadata[SUBJECT_POINT_KEY] !== undefined && newer.view.metadata[SUBJECT_POINT_KEY] !== undefined) {
      return refuse('both are dated moments (subject time); one event does not replace another');
    }
    if (!rules.relatedByText(older.id, newer.id)) return refuse('the host does not find the two entries similar; only a fact about the same thing can replace another');
    if (protectionOf(older, rules.protection) !== undefined) {
      const home = protectedHome(older, rules.protection);
      if (!isUnderPrefix(newer.view.category, home)) return refuse(`${older.id} is protected (${protectionOf(older, rules.protection)}) and may only be replaced by an entry under ${home}/`);
    }
    if (successorOf.has(older.id)) return refuse(`${older.id} is already replaced by ${successorOf.get(older.id)} in this reply`);
    if (successors.has(older.id)) return refuse(`${older.id} replaces another entry in this reply, so it holds`);
    if (successorOf.has(newer.id)) return refuse(`${newer.id} is replaced itself in this reply`);
    successorOf.set(older.id, newer.id);
    successors.add(newer.id);
    supersessions.push({ older, newer, verified: rules.coverage(older.id, newer.id) >= SAME_SUBJECT_COVERAGE });
  });
  return { supersessions, refusals, retry };
}

/** Why `newer` cannot be the fact that replaced `older`, judged by when each was noted; or undefined. */
function orderProblem(older: MemoryEntry, newer: MemoryEntry): string | undefined {
  const newerNoted = timestampMs(newer.createdAt);
  if (newerNoted < timestampMs(older.createdAt)) return `${newer.id} was first noted before ${older.id}, so it cannot be the newer fact`;
  if (timestampMs(older.lastSeenAt) > newerNoted) return `${older.id} was observed again after ${newer.id} was first noted, so it still held then`;
  return undefined;
}
