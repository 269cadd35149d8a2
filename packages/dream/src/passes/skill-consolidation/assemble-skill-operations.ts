import { type Skill } from '@reverie/core';
import { timestampMs } from '@reverie/core/internal';
import type { DreamOperation } from '@reverie/dream-state';
import type { AcceptedSave, SkillCallReview } from './review-skill-reply';
import type { SkillProfile } from './skill-profile';

/** The most seeAlso entries a skill may have (core skill schema). */
const MAX_SEE_ALSO = 50;
const REASON = 'skill-consolidation';

export interface AssembledSkillPlan {
  operations: DreamOperation[];
  notes: string[];
  refusals: string[];
  details: {
    deleteCap: number;
    merges: Array<{ into: string; sources: string[] }>;
    guides: string[];
    rewrites: string[];
    deleted: string[];
    seeAlsoRepaired: string[];
  };
}

/**
 * The largest number of skills one run may delete, merge sources included: `maxDeleteShare` ×
 * the library, rounded down, but at least one when the share is above 0 (so a library of two
 * skills can still merge them). Pure.
 */
export function deletionCap(maxDeleteShare: number, librarySize: number): number {
  return maxDeleteShare === 0 ? 0 : Math.max(1, Math.floor(maxDeleteShare * librarySize));
}

/**
 * Turns the reviewed replies of every call into the run's operations (SPEC D9, D5, B2–B4),
 * saves first and deletes last:
 *
 * 1. a rewrite identical to its skill is dropped (it saves nothing); two calls creating a skill
 *    of the same new name: the later save is refused;
 * 2. the deletion cap (`deletionCap`): merges are counted first, in reply order; a merge whose
 *    source deletions would pass the cap is refused whole, never applied without them; then
 *    outright deletions, in reply order, and the ones beyond the cap are refused by name;
 * 3. a call left with deletions but no save (its saves all refused in steps 1–2) loses its
 *    deletions too: nothing is deleted with nothing saved;
 * 4. merge arithmetic by the host: a merged skill keeps the earliest `createdAt` and the latest
 *    `lastUsedAt` of its sources and of the skill it overwrites; a rewrite keeps its dates; a
 *    guide is new (created now, never used);
 * 5. seeAlso integrity: every link of a saved skill names a skill that exists after the run (a
 *    link to a merged-away skill points to its merge target, a link to a deleted or unknown
 *    skill is dropped, a link to itself too); every other skill linking to a removed one is
 *    repaired the same way with a `skill.save` of its own, except protected skills, which are
 *    left as they are and reported;
 * 6. a rewrite left identical to its skill once its links are settled is dropped; every source
 *    of an accepted merge other than the target is deleted (exhaustive deletion). Pure.
 */
export function assembleSkillOperations(input: {
  /** The whole library. */
  profiles: readonly SkillProfile[];
  reviews: readonly SkillCallReview[];
  maxDeleteShare: number;
  now: Date;
}): AssembledSkillPlan {
  const refusals = input.reviews.flatMap((review) => review.refusals);
  const notes: string[] = [];
  const stamp = input.now.toISOString();
  const refuseSave = (save: AcceptedSave, reason: string) => {
    const stay = save.sources.map((source) => JSON.stringify(source.skill.name));
    refusals.push(
      `call ${save.call}: toSave item ${save.position} (${JSON.stringify(save.name)}) refused: ${reason}${stay.length > 0 ? `; its sources stay (${stay.join(', ')})` : ''}`,
    );
  };

  // 1. New names saved by two calls.
  const newNames = new Map<string, number>();
  const saves: AcceptedSave[] = [];
  for (const save of input.reviews.flatMap((review) => review.saves)) {
    if (save.kind === 'rewrite' && save.target && sameSkill(save.target.skill, save)) {
      notes.push(`rewrite of ${JSON.stringify(save.name)} identical to the skill; nothing to change`);
      continue;
    }
    if (!save.target) {
      const earlier = newNames.get(save.name);
      if (earlier !== undefined) {
        refuseSave(save, `call ${earlier} already saves a new skill with that name`);
        continue;
      }
      newNames.set(save.name, save.call);
    }
    saves.push(save);
  }

  // 2. The cap on merges, 3. calls left without saves, 2. the cap on outright deletions.
  const librarySize = input.profiles.length;
  const cap = deletionCap(input.maxDeleteShare, librarySize);
  const capText = `the cap of ${cap} deletion(s) per run (maxDeleteShare ${input.maxDeleteShare} × ${librarySize} skills)`;
  let used = 0;
  const accepted = saves.filter((save) => {
    if (save.kind !== 'merge') return true;
    if (used + save.sources.length <= cap) {
      used += save.sources.length;
      return true;
    }
    refuseSave(save, `merging it would delete ${save.sources.length} source(s), over ${capText} with ${used} already used`);
    return false;
  });
  const savingCalls = new Set(accepted.map((save) => save.call));
  const deletions: SkillProfile[] = [];
  for (const review of input.reviews) {
    for (const profile of review.deletions) {
      const name = JSON.stringify(profile.skill.name);
      if (!savingCalls.has(review.call)) {
        refusals.push(`call ${review.call}: delete ${name} refused: deletes with nothing saved (every save of this call was refused)`);
      } else if (used >= cap) {
        refusals.push(`call ${review.call}: delete ${name} refused: over ${capText}`);
      } else {
        used++;
        deletions.push(profile);
      }
    }
  }

  // Where every removed skill goes: its merge target, or nowhere.
  const redirect = new Map<string, string | null>();
  for (const save of accepted) for (const source of save.sources) redirect.set(source.skill.name, save.name);
  for (const profile of deletions) redirect.set(profile.skill.name, null);
  const after = new Set(input.profiles.map((profile) => profile.skill.name).filter((name) => !redirect.has(name)));
  for (const save of accepted) after.add(save.name);
  const resolveLinks = (links: readonly string[], self: string, dropped: (name: string) => void): string[] => {
    const resolved: string[] = [];
    for (const link of links) {
      const target = redirect.has(link) ? redirect.get(link)! : link;
      if (target === null || !after.has(target)) dropped(link);
      else if (target !== self && !resolved.includes(target)) resolved.push(target);
    }
    return resolved.slice(0, MAX_SEE_ALSO);
  };

  // 4.–6. Saves of the model's skills.
  const saveOps: DreamOperation[] = [];
  const deleteOps: DreamOperation[] = [];
  const details: AssembledSkillPlan['details'] = { deleteCap: cap, merges: [], guides: [], rewrites: [], deleted: [], seeAlsoRepaired: [] };
  const saved = new Set<string>();
  for (const save of accepted) {
    const seeAlso = resolveLinks(save.seeAlso, save.name, (link) => {
      if (save.givenSeeAlso && !redirect.has(link))
        refusals.push(
          `call ${save.call}: toSave item ${save.position} (${JSON.stringify(save.name)}): seeAlso ${JSON.stringify(link)} names no skill; dropped`,
        );
    });
    const skill: Skill = {
      name: save.name,
      summary: save.summary,
      content: save.content,
      seeAlso,
      ...datesOf(save, stamp),
      updatedAt: stamp,
    };
    saved.add(save.name);
    if (save.kind === 'rewrite' && save.target && sameSkill(save.target.skill, skill)) {
      notes.push(`rewrite of ${JSON.stringify(save.name)} identical to the skill; nothing to change`);
      continue;
    }
    saveOps.push({ op: 'skill.save', skill, expectUpdatedAt: save.target?.skill.updatedAt ?? null, reason: reasonOf(save) });
    if (save.kind === 'merge') {
      details.merges.push({ into: save.name, sources: save.sources.map((source) => source.skill.name) });
      for (const source of save.sources) {
        deleteOps.push({
          op: 'skill.delete',
          name: source.skill.name,
          expectUpdatedAt: source.skill.updatedAt,
          reason: `${REASON}: merged into ${save.name}`,
        });
      }
    } else if (save.kind === 'guide') details.guides.push(save.name);
    else details.rewrites.push(save.name);
  }
  for (const profile of deletions) {
    details.deleted.push(profile.skill.name);
    deleteOps.push({
      op: 'skill.delete',
      name: profile.skill.name,
      expectUpdatedAt: profile.skill.updatedAt,
      reason: `${REASON}: redundant, deleted`,
    });
  }

  // 5. Links in the other skills to the removed ones.
  for (const profile of input.profiles) {
    const { skill } = profile;
    if (saved.has(skill.name) || redirect.has(skill.name)) continue;
    const stale = skill.seeAlso.filter((link) => redirect.has(link));
    if (stale.length === 0) continue;
    if (profile.protected) {
      notes.push(
        `protected skill ${JSON.stringify(skill.name)} still links to removed ${stale.map((link) => JSON.stringify(link)).join(', ')}; left as it is`,
      );
      continue;
    }
    const seeAlso = resolveLinks(skill.seeAlso, skill.name, () => {});
    const changes = stale.map((link) => (redirect.get(link) ? `${link} → ${redirect.get(link)}` : `${link} removed`));
    saveOps.push({
      op: 'skill.save',
      skill: { ...skill, seeAlso, updatedAt: stamp },
      expectUpdatedAt: skill.updatedAt,
      reason: `${REASON}: seeAlso repaired (${changes.join(', ')})`,
    });
    details.seeAlsoRepaired.push(skill.name);
  }

  notes.push(
    `${details.merges.length} merge(s), ${details.guides.length} parent guide(s), ${details.rewrites.length} rewrite(s), ${details.deleted.length} outright deletion(s), ${details.seeAlsoRepaired.length} seeAlso repair(s); ${used} of at most ${cap} deletion(s) used`,
  );
  return { operations: [...saveOps, ...deleteOps], notes, refusals, details };
}

/** SPEC D9: the earliest createdAt and latest lastUsedAt of what a save replaces; a guide is new. */
function datesOf(save: AcceptedSave, stamp: string): Pick<Skill, 'createdAt' | 'lastUsedAt'> {
  const replaced = [...(save.target ? [save.target] : []), ...save.sources].map((profile) => profile.skill);
  if (replaced.length === 0) return { createdAt: stamp, lastUsedAt: null };
  const createdAt = replaced.map((skill) => skill.createdAt).reduce((a, b) => (timestampMs(b) < timestampMs(a) ? b : a));
  const used = replaced.map((skill) => skill.lastUsedAt).filter((at): at is string => at !== null);
  const lastUsedAt = used.length === 0 ? null : used.reduce((a, b) => (timestampMs(b) > timestampMs(a) ? b : a));
  return { createdAt, lastUsedAt };
}

function reasonOf(save: AcceptedSave): string {
  switch (save.kind) {
    case 'merge':
      return `${REASON}: merged ${[...(save.target ? [save.name] : []), ...save.sources.map((source) => source.skill.name)].join(', ')} into ${save.name}`;
    case 'guide':
      return `${REASON}: parent guide of ${save.cluster?.prefix ?? save.name}/*`;
    case 'rewrite':
      return `${REASON}: ${save.name} rewritten`;
  }
}

/** Same summary, content (surrounding whitespace aside) and links. */
function sameSkill(a: Pick<Skill, 'summary' | 'content' | 'seeAlso'>, b: Pick<Skill, 'summary' | 'content' | 'seeAlso'>): boolean {
  return (
    a.summary.trim() === b.summary.trim() &&
    a.content.trim() === b.content.trim() &&
    JSON.stringify(a.seeAlso) === JSON.stringify(b.seeAlso)
  );
}
