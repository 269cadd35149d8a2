import { skillRewriteProblem } from '../../review/fact-check';
import { skillSchema } from '@reverie/core';
import { matchesAnySkillPattern, pathNameProblem, SKILL_NAME_RULES } from '@reverie/core/internal';
import { stripRetentionTags } from '../memory-consolidation/normalise-content';
import type { PrefixCluster } from './prefix-clusters';
import { guidedCluster } from './skill-calls';
import type { ProposedSkill, SkillConsolidationReply } from './skill-consolidation-reply';
import type { SkillProfile } from './skill-profile';

/** What one call may touch. */
export interface CallScope {
  /** 1-based number of the call, used in refusals. */
  call: number;
  /** The skills shown in this call, by name. */
  shown: ReadonlyMap<string, SkillProfile>;
  /** Every skill name of the library, to tell unknown names from another call's names. */
  library: ReadonlySet<string>;
  /** The prefix clusters shown in this call (a new skill may only be one of their guides). */
  clusters: readonly PrefixCluster[];
  /** `protectedSkills` patterns: also no new skill may take a protected name. */
  protectedSkills: readonly string[];
}

/** A save that passed the guards of its call. */
export interface AcceptedSave {
  call: number;
  /** 1-based position in the reply's toSave. */
  position: number;
  /** merge: replaces other skills; rewrite: changes one skill; guide: a new parent guide of a cluster. */
  kind: 'merge' | 'rewrite' | 'guide';
  name: string;
  summary: string;
  content: string;
  seeAlso: string[];
  /** Whether seeAlso came from the model (its unknown names are reported) or was inherited. */
  givenSeeAlso: boolean;
  /** The existing skill with the save's name, if any (shown in this call). */
  target: SkillProfile | undefined;
  /** The other shown skills it replaces; each is deleted when the merge is applied. */
  sources: SkillProfile[];
  /** The cluster a guide is for. */
  cluster?: PrefixCluster;
}

export interface SkillCallReview {
  call: number;
  saves: AcceptedSave[];
  /** Shown skills the model deleted outright (not merge sources). */
  deletions: SkillProfile[];
  refusals: string[];
  /** The whole reply was refused: it deleted with nothing saved. */
  rejected: boolean;
  /** Refused whole by the run's budgets (not by the pass's own rules). */
  overBudget?: boolean;
}

/**
 * SPEC D9, B4, the guards one call's reply goes through, item by item, each refusal recorded:
 *
 * - names in toDelete and sourceNames must be skills shown in this call: unknown names and names
 *   of another call's skills are ignored and reported; a save none of whose sourceNames was
 *   shown is refused;
 * - a save needs a valid skill name, a summary (the target's or first source's when blank) and
 *   non-empty content, both stripped of retention tags (SPEC D17); invalid seeAlso names are
 *   dropped;
 * - protected skills are never a save target, a merge source or deleted; a merge with a
 *   protected source is refused whole; skills shown truncated are read-only;
 * - the name of an existing skill shown in another call cannot be a save target; a skill is
 *   changed by one save at most;
 * - a save without sources under a new name is accepted only as the parent guide of a cluster
 *   shown in this call (one per cluster);
 * - a refused save keeps its sources: they are also taken out of toDelete;
 * - a reply that deletes (toDelete, or sourceNames other than the save's own name) with nothing
 *   accepted to save is rejected whole. Pure.
 */
export function reviewSkillReply(reply: SkillConsolidationReply, scope: CallScope): SkillCallReview {
  const refusals: string[] = [];
  const refuse = (message: string) => refusals.push(`call ${scope.call}: ${message}`);
  const shownSkill = (name: string, where: string): SkillProfile | undefined => {
    const profile = scope.shown.get(name);
    if (profile) return profile;
    if (scope.library.has(name)) refuse(`${where}: ${JSON.stringify(name)} was not shown in this call (another call has it); ignored`);
    else refuse(`${where}: unknown skill ${JSON.stringify(name)} ignored`);
    return undefined;
  };

  const saves: AcceptedSave[] = [];
  /** Names a save already changes (target or source), with the save's position. */
  const claimed = new Map<string, number>();
  /** Sources of refused saves: they stay. */
  const kept = new Set<string>();
  const guides = new Map<string, number>();

  reply.toSave.forEach((save, index) => {
    const position = index + 1;
    const where = `toSave item ${position} (${JSON.stringify(save.name)})`;
    const sources: SkillProfile[] = [];
    const given = unique(save.sourceNames ?? []).filter((name) => name !== save.name);
    for (const name of given) {
      const profile = shownSkill(name, `${where} sourceNames`);
      if (profile) sources.push(profile);
    }
    const refuseSave = (reason: string) => {
      const stay = sources.filter((source) => !claimed.has(source.skill.name)).map((source) => source.skill.name);
      refuse(
        `${where} refused: ${reason}${stay.length > 0 ? `; its sources stay (${stay.map((name) => JSON.stringify(name)).join(', ')})` : ''}`,
      );
      for (const name of stay) kept.add(name);
      if (scope.shown.has(save.name) && !claimed.has(save.name)) kept.add(save.name);
    };

    const problem = pathNameProblem(save.name, SKILL_NAME_RULES);
    if (problem) return refuseSave(`invalid skill name: ${problem}`);
    if (given.length > 0 && sources.length === 0) return refuseSave('none of its sourceNames was shown in this call');

    let target: SkillProfile | undefined;
    if (scope.library.has(save.name)) {
      target = scope.shown.get(save.name);
      if (!target) return refuseSave('a skill of that name exists but was shown in another call');
    }
    if (target?.protected || (!target && matchesAnySkillPattern(save.name, scope.protectedSkills))) {
      return refuseSave(`the name ${JSON.stringify(save.name)} is protected`);
    }
    const protectedSources = sources.filter((source) => source.protected).map((source) => JSON.stringify(source.skill.name));
    if (protectedSources.length > 0) return refuseSave(`its sources include protected skill(s) ${protectedSources.join(', ')}`);
    const truncated = [target, ...sources].filter((profile) => profile?.truncated).map((profile) => JSON.stringify(profile!.skill.name));
    if (truncated.length > 0) return refuseSave(`${truncated.join(', ')} was shown truncated and cannot be changed in this run`);
    const taken = [save.name, ...sources.map((source) => source.skill.name)].find((name) => claimed.has(name));
    if (taken !== undefined) return refuseSave(`${JSON.stringify(taken)} is already changed by toSave item ${claimed.get(taken)}`);

    let kind: AcceptedSave['kind'] = sources.length > 0 ? 'merge' : 'rewrite';
    let cluster: PrefixCluster | undefined;
    if (sources.length === 0 && !target) {
      cluster = guidedCluster(save.name, scope.clusters);
      if (!cluster) {
        return refuseSave(
          'a new skill without sourceNames is only accepted as the parent guide of a cluster shown in this call (named like the cluster, "<prefix>" or "<prefix>/<name>")',
        );
      }
      const earlier = guides.get(cluster.prefix);
      if (earlier !== undefined) return refuseSave(`the cluster "${cluster.prefix}/*" already gets a guide from toSave item ${earlier}`);
      kind = 'guide';
    }

    const summary = stripRetentionTags(save.summary ?? '') || target?.skill.summary || sources[0]?.skill.summary || '';
    if (summary === '') return refuseSave('it has no summary');
    if (!skillSchema.shape.summary.safeParse(summary).success)
      return refuseSave(`its summary is longer than the skill store allows (${summary.length} characters)`);
    const content = stripRetentionTags(save.content);
    if (content === '') return refuseSave('its content is empty');
    if (!skillSchema.shape.content.safeParse(content).success)
      return refuseSave(`its content is longer than the skill store allows (${content.length} characters)`);
    // A rewrite keeps what the skill says; no save carries instructions to the assistant (SPEC B11).
    const rewriteProblem = skillRewriteProblem(kind === 'rewrite' && target ? [target.skill.content] : [], content);
    if (rewriteProblem && (kind === 'rewrite' || rewriteProblem.startsWith('it injects'))) return refuseSave(rewriteProblem);

    const seeAlso = linksOf(save, { kind, target, sources, cluster }, (name, reason) =>
      refuse(`${where}: seeAlso ${JSON.stringify(name)} dropped: ${reason}`),
    );
    saves.push({
      call: scope.call,
      position,
      kind,
      name: save.name,
      summary,
      content,
      seeAlso,
      givenSeeAlso: save.seeAlso !== undefined,
      target,
      sources,
      ...(cluster ? { cluster } : {}),
    });
    for (const name of [save.name, ...sources.map((source) => source.skill.name)]) claimed.set(name, position);
    if (cluster) guides.set(cluster.prefix, position);
  });

  const mergedAway = new Set(saves.flatMap((save) => save.sources.map((source) => source.skill.name)));
  const deletions: SkillProfile[] = [];
  for (const name of unique(reply.toDelete)) {
    const profile = shownSkill(name, 'toDelete');
    if (!profile || mergedAway.has(name)) continue;
    if (profile.protected) refuse(`toDelete: ${JSON.stringify(name)} is protected; not deleted`);
    else if (claimed.has(name)) refuse(`toDelete: ${JSON.stringify(name)} is saved by toSave item ${claimed.get(name)}; not deleted`);
    else if (kept.has(name)) refuse(`toDelete: ${JSON.stringify(name)} kept, because the save that was to replace it was refused`);
    else if (profile.truncated) refuse(`toDelete: ${JSON.stringify(name)} was shown truncated and cannot be deleted in this run`);
    else deletions.push(profile);
  }

  const deletes = reply.toDelete.length > 0 || reply.toSave.some((save) => (save.sourceNames ?? []).some((name) => name !== save.name));
  if (deletes && saves.length === 0) {
    refuse(
      `reply rejected whole: deletes with nothing saved (toDelete ${JSON.stringify(reply.toDelete)}, ${reply.toSave.length} save(s) proposed, none accepted); nothing of this call is applied`,
    );
    return { call: scope.call, saves: [], deletions: [], refusals, rejected: true };
  }
  return { call: scope.call, saves, deletions, refusals, rejected: false };
}

/**
 * The links a save asks for: the model's list (invalid names dropped and reported) or, when
 * it gave none, what the skill had: the target's links, plus its sources' for a merge, or the
 * cluster's members for a guide. Whether each link still exists is settled later, once every
 * call is known.
 */
function linksOf(
  save: ProposedSkill,
  context: {
    kind: AcceptedSave['kind'];
    target: SkillProfile | undefined;
    sources: readonly SkillProfile[];
    cluster: PrefixCluster | undefined;
  },
  drop: (name: string, reason: string) => void,
): string[] {
  if (save.seeAlso !== undefined) {
    const links: string[] = [];
    for (const name of unique(save.seeAlso)) {
      const problem = pathNameProblem(name, SKILL_NAME_RULES);
      if (problem) drop(name, `invalid skill name: ${problem}`);
      else links.push(name);
    }
    return links;
  }
  if (context.kind === 'guide') return [...(context.cluster?.names ?? [])];
  return unique([...(context.target?.skill.seeAlso ?? []), ...context.sources.flatMap((source) => source.skill.seeAlso)]);
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}
