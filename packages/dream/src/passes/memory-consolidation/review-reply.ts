import { CATEGORY_RULES, isUnderPrefix, MAX_MEMORY_CONTENT_LENGTH, pathNameProblem, tagSchema } from '@reverie/core';
import type { ConsolidationItem } from './consolidation-item';
import type { ConsolidationReply } from './consolidation-reply';
import { missingFacts } from './fact-tokens';
import { conflictingSubjectTimes } from './subject-time-conflict';
import { deepestCategory, unionTags } from './merge-entries';
import { stripRetentionTags } from './normalise-content';
import type { FactLoss } from './render-consolidation-prompt';

export const ANTI_PATTERN_CATEGORY = 'anti-patterns';
export const ANTI_PATTERN_TAG = 'anti-pattern';

/** A save that passed the guards of its call. */
export interface ProposedSave {
  content: string;
  category: string;
  tags: string[];
  /** The shown items it replaces; empty for a new entry (an anti-pattern). */
  sources: ConsolidationItem[];
}

export interface CallReview {
  saves: ProposedSave[];
  /** Items the model deleted outright (not a source of an accepted save, not kept by a refused one). */
  deletions: ConsolidationItem[];
  refusals: string[];
  /** Accepted nothing for these saves: they dropped facts of their sources. */
  factLosses: FactLoss[];
}

/**
 * SPEC B4, the guards one call's reply goes through. Ids not shown in this call are ignored and
 * reported. A save needs non-empty content (retention hints stripped), a valid category (its
 * sources' deepest one when it gives none or an empty one) and valid tags (invalid ones are
 * dropped); a save without sources is only accepted as an anti-pattern (`anti-patterns/…`,
 * tagged `anti-pattern`) in a call that carried correction feedback;
 * a save with sources must keep every fact token of them (`missingFacts`). A refused save keeps
 * its sources alive: they are also taken out of toDelete. Pure.
 */
export function reviewReply(
  reply: ConsolidationReply,
  shown: ReadonlyMap<string, ConsolidationItem>,
  context: { call: number; withCorrections: boolean },
): CallReview {
  const refusals: string[] = [];
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
  const factLosses: FactLoss[] = [];
  const kept = new Set<string>();
  reply.toSave.forEach((save, index) => {
    const position = index + 1;
    const where = `toSave item ${position}`;
    const givenSources = save.sourceIds ?? [];
    const sources = known(givenSources, where);
    const keepSources = (reason: string) => {
      refuse(`${where} refused: ${reason}${sources.length > 0 ? `; its sources stay (${sources.map((s) => s.id).join(', ')})` : ''}`);
      for (const source of sources) kept.add(source.id);
    };
    if (givenSources.length > 0 && sources.length === 0) return keepSources('none of its sourceIds was shown in this call');

    const content = stripRetentionTags(save.content);
    if (content === '') return keepSources('its content is empty');
    if (content.length > MAX_MEMORY_CONTENT_LENGTH) return keepSources(`its content is longer than ${MAX_MEMORY_CONTENT_LENGTH} characters`);

    const given = save.category?.trim() ? save.category : undefined;
    const category = given ?? (sources.length > 0 ? deepestCategory(sources.map((source) => source.view)) : undefined);
    if (category === undefined) return keepSources('a new entry needs a category');
    const problem = pathNameProblem(category, CATEGORY_RULES);
    if (problem) return keepSources(`invalid category ${JSON.stringify(category)}: ${problem}`);

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
    if (moments) return keepSources(`its sources describe different moments (subject time ${moments[0]} and ${moments[1]})`);

    const missing = missingFacts(sources.map((source) => source.view.content), content);
    if (missing.length > 0) {
      factLosses.push({ position, sourceIds: sources.map((source) => source.id), missing });
      return keepSources(`it drops facts of its sources: ${missing.map((fact) => JSON.stringify(fact)).join(', ')}`);
    }
    saves.push({ content, category, tags: unionTags(tags), sources });
  });

  const merged = new Set(saves.flatMap((save) => save.sources.map((source) => source.id)));
  const deletions: ConsolidationItem[] = [];
  for (const item of known(reply.toDelete, 'toDelete')) {
    if (merged.has(item.id)) continue;
    if (kept.has(item.id)) {
      refuse(`toDelete: ${item.id} kept, because the entry that was to replace it was refused`);
      continue;
    }
    deletions.push(item);
  }
  return { saves, deletions, refusals, factLosses };
}
