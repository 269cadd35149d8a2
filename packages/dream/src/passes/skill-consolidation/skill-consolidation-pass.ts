import { skillConsolidationPass } from './skill-consolidation-options';
import { DeclaredPass } from '../../engine/declared-pass';
import { replyAllowance, RunBudget } from '../../review/run-budget';
import type { PassContext, PassPlan, PassSkip } from '../../engine/dream-types';
import { estimateTokens, packIntoCalls } from '../memory-consolidation/pack-calls';
import { assembleSkillOperations, deletionCap } from './assemble-skill-operations';
import { type CoUsedPair, topCoUsedPairs } from './co-used-pairs';
import { type PrefixCluster, prefixClusters } from './prefix-clusters';
import {
  renderPairLine,
  renderSkillBlock,
  renderSkillConsolidationData,
  SKILL_CONSOLIDATION_DIRECTIVE,
  SKILL_CONSOLIDATION_DIRECTIVE_FILE,
} from './render-skill-consolidation-prompt';
import { reviewSkillReply, type SkillCallReview } from './review-skill-reply';
import { clustersWithin, groupRelatedSkills, pairsWithin } from './skill-calls';
import {
  type SkillConsolidationOptions,
  type SkillConsolidationOptionsInput,
  skillConsolidationOptionsSchema,
} from './skill-consolidation-options';
import { skillConsolidationReplySchema } from './skill-consolidation-reply';
import { buildSkillProfiles, type SkillProfile } from './skill-profile';
import { usagesInWindow, usageWindow } from './usage-window';
import { parsePassOptions } from '../parse-pass-options';
import { describeServiceNeeds } from '../../engine/service-needs';

/** Room kept in every call for the intro, labels and fences. */
const FRAME_TOKENS = 200;

/**
 * SPEC D9, B1, B4 (REM): consolidates the skill library.
 *
 * 1. Profiles every skill: uses in the last `usageWindowDays`, the `[sparse-content]` mark,
 *    the `[protected]` mark; finds the `topPairs` pairs of skills used in the same sessions and
 *    the prefix clusters (`mcp/*`).
 * 2. Sends the catalogue to the model, in one call when it fits `tokenBudget`; otherwise related
 *    skills (a prefix cluster, and the groups a co-used pair joins) travel together and the
 *    groups are packed into as few calls as fit (a group bigger than a call is cut in name
 *    order). Every skill is sent exactly once, so the number of calls is bounded by the size of
 *    the catalogue over the budget. A skill too long to show whole is cut and read-only.
 * 3. Every reply goes through the guards of `reviewSkillReply`, then the whole run through
 *    `assembleSkillOperations` (cap on deletions, merge dates, seeAlso integrity), which gives
 *    the `skill.save` and `skill.delete` operations. The engine archives what they replace, so
 *    undoing the run restores every skill.
 */
export class SkillConsolidationPass extends DeclaredPass {
  readonly options: SkillConsolidationOptions;

  constructor(options: SkillConsolidationOptionsInput = {}) {
    super(skillConsolidationPass);
    this.options = parsePassOptions('skill-consolidation', skillConsolidationOptionsSchema, options);
  }

  async plan(context: PassContext): Promise<PassPlan | PassSkip> {
    const { skills, skillUsage } = context.services;
    if (!skills) return { skipped: describeServiceNeeds(['skills']) };
    if (!skillUsage) return { skipped: describeServiceNeeds(['skillUsage']) };
    const gateway = context.gateway;
    if (!gateway) return { skipped: 'needs a language model' };

    const library = await skills.list();
    if (library.length < 2) return { skipped: 'fewer than two skills' };
    const options = this.options;
    const now = context.now();
    const window = usageWindow(now, options.usageWindowDays);
    const names = new Set(library.map((skill) => skill.name));
    const listed = await skillUsage.list({ since: window.since.toISOString(), until: window.until.toISOString() });
    const usages = usagesInWindow(listed, window).filter((usage) => names.has(usage.skill));
    const pairs = topCoUsedPairs(usages, options.topPairs);
    const clusters = prefixClusters([...names]);
    const deleteCap = deletionCap(options.maxDeleteShare, library.length);
    const budget = this.budget(now, pairs, deleteCap);
    const profiles = buildSkillProfiles(library, usages, {
      now,
      window,
      rules: { ...options, maxContentChars: budget.maxContentChars },
    });

    const render = { windowDays: options.usageWindowDays, maxContentChars: budget.maxContentChars };
    const byName = new Map(profiles.map((profile) => [profile.skill.name, profile]));
    const cost = (name: string) => estimateTokens(`${renderSkillBlock(byName.get(name)!, render)}\n\n${JSON.stringify(name)}, `);
    const calls = packIntoCalls(groupRelatedSkills([...names], clusters, pairs), cost, budget.skills);

    const reviews: SkillCallReview[] = [];
    const replyBudget = new RunBudget(deleteCap);
    let proposed = 0;
    const scopes: Array<{ skills: string[]; pairs: CoUsedPair[]; clusters: PrefixCluster[] }> = [];
    for (const [index, callNames] of calls.entries()) {
      context.signal.throwIfAborted();
      const inCall = new Set(callNames);
      const shown = callNames.map((name) => byName.get(name)!);
      const scope = { skills: callNames, pairs: pairsWithin(pairs, inCall), clusters: clustersWithin(clusters, inCall) };
      scopes.push(scope);
      const data = renderSkillConsolidationData({
        ...render,
        today: now,
        skills: shown,
        totalSkills: library.length,
        pairs: scope.pairs,
        clusters: scope.clusters,
        deleteCap,
      });
      const reply = await gateway.ask({
        pass: this.name,
        directiveFile: SKILL_CONSOLIDATION_DIRECTIVE_FILE,
        builtInDirective: SKILL_CONSOLIDATION_DIRECTIVE,
        data,
        schema: skillConsolidationReplySchema,
        signal: context.signal,
      });
      const review = reviewSkillReply(reply, {
        call: index + 1,
        shown: new Map(shown.map((profile) => [profile.skill.name, profile])),
        library: names,
        clusters: scope.clusters,
        protectedSkills: options.protectedSkills,
      });
      proposed += reply.toSave.length + reply.toDelete.length;
      // A reply saves every skill shown plus one guide per cluster, within the reply allowance; its outright
      // deletions stay within the run's cap; otherwise it is refused whole (SPEC B11).
      const counts = { saves: reply.toSave.length, deletions: review.deletions.length };
      reviews.push(
        replyBudget.admit(index + 1, counts, replyAllowance(shown.length + scope.clusters.length))
          ? review
          : { ...review, saves: [], deletions: [], rejected: true, overBudget: true },
      );
    }

    await context.artifact(
      `${this.name}.selection.json`,
      `${JSON.stringify({ since: window.since.toISOString(), until: window.until.toISOString(), deleteCap, pairs, clusters, calls: scopes }, null, 2)}\n`,
    );
    const assembled = assembleSkillOperations({ profiles, reviews, maxDeleteShare: options.maxDeleteShare, now });
    const notes = [
      `${library.length} skill(s), ${usages.length} use(s) in the last ${options.usageWindowDays} days, ${pairs.length} co-used pair(s), ${clusters.length} prefix cluster(s)`,
      ...this.markNotes(profiles),
      `${calls.length} model call(s)`,
      ...reviews
        .filter((review) => review.rejected)
        .map(
          (review) =>
            `call ${review.call}: reply rejected whole (${review.overBudget ? "over the run's budgets; see misbehaviour" : 'deletes with nothing saved'})`,
        ),
      ...assembled.notes,
    ];
    const accepted = reviews.reduce((sum, review) => sum + review.saves.length + review.deletions.length, 0);
    return {
      operations: assembled.operations,
      itemsProcessed: library.length,
      notes,
      refusals: assembled.refusals,
      misbehaviour: replyBudget.misbehaviour,
      proposals: { proposed, accepted },
      details: assembled.details,
    };
  }

  private markNotes(profiles: readonly SkillProfile[]): string[] {
    const count = (mark: 'sparse' | 'protected' | 'truncated') => profiles.filter((profile) => profile[mark]).length;
    const notes: string[] = [];
    if (count('sparse') > 0) notes.push(`${count('sparse')} skill(s) marked [sparse-content]`);
    if (count('protected') > 0) notes.push(`${count('protected')} protected skill(s) left as they are`);
    if (count('truncated') > 0) notes.push(`${count('truncated')} skill(s) too long to show whole: read-only this run`);
    return notes;
  }

  /** How a call's budget splits: the directive, frame and pairs off the top, the rest for skills, half a call at most per skill's content. */
  private budget(now: Date, pairs: readonly CoUsedPair[], deleteCap: number): { skills: number; maxContentChars: number } {
    const total = this.options.tokenBudget;
    const emptyData = renderSkillConsolidationData({
      windowDays: this.options.usageWindowDays,
      maxContentChars: 0,
      today: now,
      skills: [],
      totalSkills: 0,
      pairs: [],
      clusters: [],
      deleteCap,
    });
    const frame =
      estimateTokens(SKILL_CONSOLIDATION_DIRECTIVE) +
      estimateTokens(emptyData) +
      estimateTokens(pairs.map(renderPairLine).join('\n')) +
      FRAME_TOKENS;
    const skills = Math.max(Math.floor(total / 4), total - frame);
    // 4 characters per token: a skill's content takes at most half of a call.
    return { skills, maxContentChars: skills * 2 };
  }
}
