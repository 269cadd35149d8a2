import { detectInjection, isUnderPrefix, MAX_MEMORY_CONTENT_LENGTH, tagSchema } from '@reverie/core';
import { CATEGORY_RULES, isSystemCategory, pathNameProblem, SYSTEM_CATEGORY } from '@reverie/core/internal';
import { checkMergeFacts, type FactVerdict } from '../../review/fact-check';
import type { FactCheckJob } from '../../review/fact-check-stage';
import type { ConsolidationItem } from './consolidation-item';
import type { ConsolidationReply } from './consolidation-reply';
import { conflictingSubjectTimes } from './subject-time-conflict';
import { deepestCategory, unionTags } from './merge-entries';
import { stripRetentionTags } from './normalise-content';
import { statesPreference } from '../../review/states-preference';
import { isProtected, type Protection, protectedHome, protectionOf } from './protection';
import type { ReviewRules } from './review-rules';
import { type ProposedSupersession, reviewSupersessions } from './review-supersessions';

/** Categories under this prefix belong to the host's own bookkeeping: no model reply may write there. */

export const ANTI_PATTERN_CATEGORY = 'anti-patterns';
export const ANTI_PATTERN_TAG = 'anti-pattern';

/** A save that passed the guards of its call. */
export interface ProposedSave {
  /** 1-based position of the save in the reply it came from. */
  position: number;
  content: string;
  category: string;
  tags: string[];
  /** The shown items it replaces; empty for a new entry (an anti-pattern). */
  sources: ConsolidationItem[];
  /** It files an entry that was not under a protected category under one (see `statesPreference`). */
  movedIntoProtected: boolean;
}

export interface CallReview {
  saves: ProposedSave[];
  /** Items the model deleted outright (not a source of an accepted save, not kept by a refused one, not protected). */
  deletions: ConsolidationItem[];
  refusals: string[];
  /** Saves refused for a reason the model can fix: what one repair request asks it to replace (see `repair-reply.ts`). */
  repairs: RepairItem[];
  /** Items whose merge or rewrite was refused for a reason the model can fix: offered again on a later run. */
  retry: string[];
  /** Pairs where a newer entry replaces an older one (SPEC B9), accepted by `reviewSupersessions`. */
  supersessions: ProposedSupersession[];
  /** How many changes the reply proposed (saves, deletions and supersessions), accepted or not. */
  proposed: number;
}

/** A refused save the model may replace: its place in the reply, its shown sources, what it wrote and why it was refused. */
export interface RepairItem {
  position: number;
  sourceIds: string[];
  content: string;
  /** Short sentences naming what is wrong (`missing date "last week"`, `the host does not find b similar to a, c`). */
  reasons: string[];
}

/**
 * The fact checks the saves of a reply will ask for, in order: what `reviewReply` passes to
 * `rules.factCheck`, so a pass can judge them beforehand without holding up the event loop
 * (`FactCheckStage`). Pure.
 */
export function factCheckJobs(
  reply: ConsolidationReply,
  shown: ReadonlyMap<string, ConsolidationItem>,
  protection: Protection,
): FactCheckJob[] {
  const jobs: FactCheckJob[] = [];
  for (const save of reply.toSave) {
    const sources = [...new Set(save.sourceIds ?? [])]
      .map((id) => shown.get(id))
      .filter((item): item is ConsolidationItem => item !== undefined);
    const content = stripRetentionTags(save.content);
    if (sources.length === 0 || content === '' || content.length > MAX_MEMORY_CONTENT_LENGTH) continue;
    jobs.push({
      sources: sources.map((source) => source.view),
      content,
      strict: sources.some((source) => protectionOf(source, protection) !== undefined),
    });
  }
  return jobs;
}

/**
 * SPEC B4, B11: the guards one call's reply goes through, one item at a time. Ids not shown in
 * this call are ignored and reported. A save needs non-empty content (retention hints stripped),
 * a valid category outside `_system/` (its sources' deepest one when it gives none) and valid
 * tags (invalid ones are dropped). A save without sources is only accepted as an anti-pattern
 * (`anti-patterns/…`, tagged `anti-pattern`) in a call that carried correction feedback. A save
 * with sources is a merge or a rewrite the host verifies:
 *
 * - its sources must be similar to one another (`rules.unconnected`, the relation the candidate
 *   clusters come from) and must not describe different moments (subject time);
 * - a protected source (importance, reinforcement or category) is never moved out of its
 *   category — one protected by a category prefix stays under it, any other stays under its own
 *   top-level category: a save filing it elsewhere is filed under the protected source's category
 *   instead (protected sources with different homes refuse the merge) — and is merged only
 *   when every fact is kept (strict check);
 * - the text must keep the facts of its sources and add none (`checkMergeFacts`).
 *
 * A refused save keeps its sources alive (they are also taken out of toDelete); when the reason
 * is one the model can fix, its sources are listed in `retry`. An outright deletion of a
 * protected item is refused. Pure.
 */
export function reviewReply(
  reply: ConsolidationReply,
  shown: ReadonlyMap<string, ConsolidationItem>,
  context: { call: number; withCorrections: boolean; label?: (position: number) => string },
  rules: ReviewRules,
): CallReview {
  const refusals: string[] = [];
  const label = context.label ?? ((position: number) => `toSave item ${position}`);
  const refuse = (message: string) => refusals.push(`call ${context.call}: ${message}`);
  const known = (ids: readonly string[], where: string): ConsolidationItem[] => {
    const items: ConsolidationItem[] = [];
    for (const id of new Set(ids)) {
      const item = shown.get(id);
      if (item) items.push(item);
      else refuse(`${where}: id ${JSON.stringify(id)} was not shown in this call; ignored`);
    }
    return items;
  };

  const saves: ProposedSave[] = [];
  const repairs: RepairItem[] = [];
  const kept = new Set<string>();
  const retry = new Set<string>();
  reply.toSave.forEach((save, index) => {
    const position = index + 1;
    const where = label(position);
    const givenSources = save.sourceIds ?? [];
    const sources = known(givenSources, where);
    /** Refuses the save; with `repair`, the reasons the model is told, so it may replace the save. */
    const keepSources = (reason: string, options: { retry?: boolean; repair?: readonly string[] } = {}) => {
      refuse(`${where} refused: ${reason}${sources.length > 0 ? `; its sources stay (${sources.map((s) => s.id).join(', ')})` : ''}`);
      for (const source of sources) {
        kept.add(source.id);
        if (options.retry) retry.add(source.id);
      }
      if (options.repair && sources.length > 0)
        repairs.push({ position, sourceIds: sources.map((source) => source.id), content: save.content, reasons: [...options.repair] });
    };
    const fixable = (reason: string) => keepSources(reason, { retry: true, repair: [reason] });
    if (givenSources.length > 0 && sources.length === 0) return keepSources('none of its sourceIds was shown in this call');

    const content = stripRetentionTags(save.content);
    if (content === '') return keepSources('its content is empty');
    if (content.length > MAX_MEMORY_CONTENT_LENGTH)
      return keepSources(`its content is longer than ${MAX_MEMORY_CONTENT_LENGTH} characters`);

    const given = save.category?.trim() ? save.category : undefined;
    let category = given ?? (sources.length > 0 ? deepestCategory(sources.map((source) => source.view)) : undefined);
    if (category === undefined) return keepSources('a new entry needs a category');
    const problem = pathNameProblem(category, CATEGORY_RULES);
    if (problem) return fixable(`invalid category ${JSON.stringify(category)}: ${problem}`);
    if (isSystemCategory(category))
      return fixable(`the category ${JSON.stringify(category)} is under ${SYSTEM_CATEGORY}/, which belongs to the host`);

    const antiPattern = isUnderPrefix(category, ANTI_PATTERN_CATEGORY);
    if (sources.length === 0 && !(antiPattern && context.withCorrections)) {
      return keepSources(
        antiPattern
          ? 'a new anti-pattern needs correction feedback in the same call'
          : 'an entry without sources can only be an anti-pattern mined from correction feedback',
      );
    }

    const tags: string[] = [];
    for (const tag of save.tags ?? unionTags(...sources.map((source) => source.view.tags))) {
      if (tagSchema.safeParse(tag).success) tags.push(tag);
      else refuse(`${where}: invalid tag ${JSON.stringify(tag)} dropped`);
    }
    if (antiPattern && !tags.includes(ANTI_PATTERN_TAG)) tags.unshift(ANTI_PATTERN_TAG);

    const moments = conflictingSubjectTimes(sources.map((source) => source.view));
    if (moments) return fixable(`its sources describe different moments (subject time ${moments[0]} and ${moments[1]})`);
    const unrelated = sources.length > 1 ? rules.unconnected(sources.map((source) => source.id)) : [];
    if (unrelated.length > 0) {
      const others = sources.map((source) => source.id).filter((id) => !unrelated.includes(id));
      return keepSources(
        `the host does not find ${unrelated.join(', ')} similar to the other sources; only entries that say the same thing may be merged`,
        {
          retry: true,
          repair: [
            `the host does not find ${unrelated.join(', ')} similar to ${others.join(', ')}: merge only entries that say the same thing (leave ${unrelated.join(', ')} out of it)`,
          ],
        },
      );
    }
    const guarded = sources.filter((source) => protectionOf(source, rules.protection) !== undefined);
    const homes = [...new Set(guarded.map((source) => protectedHome(source, rules.protection)))];
    if (homes.length > 1) {
      return fixable(
        `its protected sources live under different categories (${homes.map((home) => `${home}/`).join(', ')}) and none may leave its own`,
      );
    }
    if (homes.length === 1 && !isUnderPrefix(category, homes[0]!)) {
      // A protected entry never leaves its category; the merge itself is kept, filed where the protected source is.
      const stay = guarded[0]!;
      refuse(
        `${where}: filed under ${stay.view.category}, not ${category}: ${stay.id} is protected (${protectionOf(stay, rules.protection)}) and stays under ${homes[0]}/`,
      );
      category = stay.view.category;
    }

    // Filed under a protected category, an entry is kept from later clean-up and may sit in every
    // call's profile: only a preference or standing instruction may move there (SPEC B4).
    // A merge with a protected source is filed with it already; a move takes an entry none of whose sources is protected.
    const movedIntoProtected =
      isProtected(category, rules.protection) &&
      sources.length > 0 &&
      sources.every((source) => !isProtected(source.view.category, rules.protection));
    if (movedIntoProtected && !statesPreference(content)) {
      return fixable(
        `only an entry that states a preference or a standing instruction may be filed under the protected category ${category}; this one states a fact: keep it where its sources are`,
      );
    }
    // An anti-pattern mined from feedback has no sources to keep; it may still carry no instructions.
    const injected = sources.length === 0 ? detectInjection([], content) : [];
    if (injected.length > 0) return keepSources(`it injects ${injected.join(', ')}`);
    const job = { sources: sources.map((source) => source.view), content, strict: guarded.length > 0 };
    const verdict = sources.length === 0 ? undefined : (rules.factCheck ?? defaultFactCheck)(job);
    if (verdict && !verdict.ok) return keepSources(verdict.reason, { retry: true, repair: verdict.reasons });
    saves.push({ position, content, category, tags: unionTags(tags), sources, movedIntoProtected });
  });

  const merged = new Set(saves.flatMap((save) => save.sources.map((source) => source.id)));
  const deletions: ConsolidationItem[] = [];
  for (const item of known(reply.toDelete, 'toDelete')) {
    if (merged.has(item.id)) continue;
    if (kept.has(item.id)) {
      refuse(`toDelete: ${item.id} kept, because the entry that was to replace it was refused`);
      continue;
    }
    const protectedBy = protectionOf(item, rules.protection);
    if (protectedBy) {
      refuse(`delete ${item.id} refused: ${protectedBy}`);
      continue;
    }
    deletions.push(item);
  }
  const busy = new Set([...merged, ...deletions.map((item) => item.id)]);
  const superseded = reviewSupersessions(reply.toSupersede, shown, busy, context, rules);
  refusals.push(...superseded.refusals);
  for (const id of superseded.retry) retry.add(id);
  return {
    saves,
    deletions,
    refusals,
    repairs,
    retry: [...retry],
    supersessions: superseded.supersessions,
    proposed: reply.toSave.length + new Set(reply.toDelete).size + reply.toSupersede.length,
  };
}

const defaultFactCheck = (job: FactCheckJob): FactVerdict => checkMergeFacts(job.sources, job.content, { strict: job.strict });

/**
 * How many of the shown entries a reply asks to take out of current recall or clean-up, whether its
 * items pass their rules or not (SPEC B11): the shown ids it deletes without merging them, the
 * shown entries it says are replaced by another, and the shown entries it files anew under a
 * protected category. Counted on the reply as written: a reply asking for far more than its share
 * is refused whole, even when its items would be refused one by one. Pure.
 */
export function takenOut(reply: ConsolidationReply, shown: ReadonlyMap<string, ConsolidationItem>, protection: Protection): number {
  const sources = new Set(reply.toSave.flatMap((save) => save.sourceIds ?? []));
  const out = new Set<string>();
  for (const id of reply.toDelete) if (shown.has(id) && !sources.has(id)) out.add(id);
  for (const pair of reply.toSupersede) if (shown.has(pair.olderId) && pair.olderId !== pair.newerId) out.add(pair.olderId);
  for (const save of reply.toSave) {
    const saved = (save.sourceIds ?? []).map((id) => shown.get(id)).filter((item): item is ConsolidationItem => item !== undefined);
    const category = save.category?.trim();
    if (
      category &&
      isProtected(category, protection) &&
      saved.length > 0 &&
      saved.every((item) => !isProtected(item.view.category, protection))
    ) {
      for (const item of saved) out.add(item.id);
    }
  }
  return out.size;
}
