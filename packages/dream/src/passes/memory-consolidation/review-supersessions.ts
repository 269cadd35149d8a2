import { isUnderPrefix, type MemoryEntry, SUBJECT_POINT_KEY } from '@reverie/core';
import { timestampMs } from '@reverie/core/internal';
import type { ConsolidationItem } from './consolidation-item';
import type { ConsolidationReply } from './consolidation-reply';
import { protectionOf } from './protection';
import type { ReviewRules } from './review-rules';

/** A supersession that passed the guards of its call: `newer` replaces `older` (SPEC B9). */
export interface ProposedSupersession {
  older: ConsolidationItem;
  newer: ConsolidationItem;
  /**
   * The newer entry keeps at least `SAME_SUBJECT_COVERAGE` of the older one's terms: it speaks of
   * the same thing. A protected older entry is replaced only by such a newer one. Every pair, this
   * one or not, takes a fact out of current recall and counts against the share of a reply and the
   * run's budget (SPEC B11).
   */
  verified: boolean;
}

/** The share of the older entry's terms a newer one must keep to be about the same subject. */
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
 * - a protected older entry is replaced only by a newer entry in its own category (or below it)
 *   that keeps at least `SAME_SUBJECT_COVERAGE` of its terms: one about the same subject;
 * - the older entry is replaced once, and no entry is both replaced and a replacement in one
 *   reply (no chains, no cycles: every replaced fact's successor holds).
 *
 * Every accepted pair takes a fact out of current recall: the pass counts it against the share
 * of what one reply may take out, and the run's budget, as an outright deletion.
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
    const refuse = (reason: string) =>
      refusals.push(`call ${context.call}: toSupersede item ${index + 1} (${pair.olderId} → ${pair.newerId}) refused: ${reason}`);
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
    if (!rules.relatedByText(older.id, newer.id))
      return refuse('the host does not find the two entries similar; only a fact about the same thing can replace another');
    const verified = rules.coverage(older.id, newer.id) >= SAME_SUBJECT_COVERAGE;
    const protectedBy = protectionOf(older, rules.protection);
    if (protectedBy !== undefined) {
      // A protected fact leaves current recall only for a newer one of its own kind about the same thing.
      if (!isUnderPrefix(newer.view.category, older.view.category))
        return refuse(
          `${older.id} is protected (${protectedBy}) and may only be replaced by a newer entry in its own category ${older.view.category}`,
        );
      if (!verified)
        return refuse(
          `${older.id} is protected (${protectedBy}) and may only be replaced by an entry about the same subject (the newer one keeps under ${SAME_SUBJECT_COVERAGE * 100} % of its terms)`,
        );
    }
    if (successorOf.has(older.id)) return refuse(`${older.id} is already replaced by ${successorOf.get(older.id)} in this reply`);
    if (successors.has(older.id)) return refuse(`${older.id} replaces another entry in this reply, so it holds`);
    if (successorOf.has(newer.id)) return refuse(`${newer.id} is replaced itself in this reply`);
    successorOf.set(older.id, newer.id);
    successors.add(newer.id);
    supersessions.push({ older, newer, verified });
  });
  return { supersessions, refusals, retry };
}

/** Why `newer` cannot be the fact that replaced `older`, judged by when each was noted; or undefined. */
function orderProblem(older: MemoryEntry, newer: MemoryEntry): string | undefined {
  const newerNoted = timestampMs(newer.createdAt);
  if (newerNoted < timestampMs(older.createdAt)) return `${newer.id} was first noted before ${older.id}, so it cannot be the newer fact`;
  if (timestampMs(older.lastSeenAt) > newerNoted)
    return `${older.id} was observed again after ${newer.id} was first noted, so it still held then`;
  return undefined;
}
