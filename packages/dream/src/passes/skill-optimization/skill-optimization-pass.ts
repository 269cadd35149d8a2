import { skillOptimizationPass } from './skill-optimization-options';
import { DeclaredPass } from '../../engine/declared-pass';
import type { PassContext, PassPlan, PassSkip } from '../../engine/dream-types';
import { estimateTokens, packIntoCalls } from '../memory-consolidation/pack-calls';
import { type OptimizationCandidate, selectOptimizationCandidates } from './optimization-candidates';
import {
  renderCandidate,
  renderOptimizationData,
  SKILL_OPTIMIZE_DIRECTIVE,
  SKILL_OPTIMIZE_DIRECTIVE_FILE,
} from './render-skill-optimization-prompt';
import {
  type SkillOptimizationOptions,
  type SkillOptimizationOptionsInput,
  skillOptimizationOptionsSchema,
} from './skill-optimization-options';
import { skillOptimizationReplySchema } from './skill-optimization-reply';
import { SkillOptimizationReview } from './skill-optimization-review';
import { replyAllowance, RunBudget } from '../../review/run-budget';
import { parsePassOptions } from '../parse-pass-options';
import { describeServiceNeeds } from '../../engine/service-needs';

const DAY_MS = 86_400_000;
/** Room kept in every call for the intro and labels. */
const FRAME_TOKENS = 200;

/**
 * SPEC D10, D17, B4 (REM): rewrites skills that are failing users and fleshes out skills that
 * are too thin to help.
 *
 * 1. Over the last `windowDays`, finds the skills used in sessions that got a correction or a
 *    poor/fair session summary (at risk), and skills under `sparseChars` characters that are at
 *    least `sparseMinAgeDays` old (sparse). Protected skills are left out. At most
 *    `maxSkillsPerRun`, at-risk first. Nothing found: the pass is skipped.
 * 2. Sends each candidate with why it was chosen and, when at risk, the feedback of the sessions
 *    concerned; candidates are packed into calls under `tokenBudget`.
 * 3. The replies go through `SkillOptimizationReview` and become `skill.save` operations that
 *    keep each skill's createdAt and lastUsedAt and are conditioned on its updatedAt.
 */
export class SkillOptimizationPass extends DeclaredPass {
  readonly options: SkillOptimizationOptions;

  constructor(options: SkillOptimizationOptionsInput = {}) {
    super(skillOptimizationPass);
    this.options = parsePassOptions('skill-optimization', skillOptimizationOptionsSchema, options);
  }

  async plan(context: PassContext): Promise<PassPlan | PassSkip> {
    const { skills, skillUsage, feedback } = context.services;
    if (!skills) return { skipped: describeServiceNeeds(['skills']) };
    if (!skillUsage) return { skipped: describeServiceNeeds(['skillUsage']) };
    if (!feedback) return { skipped: describeServiceNeeds(['feedback']) };
    const gateway = context.gateway;
    if (!gateway) return { skipped: 'needs a language model' };

    const now = context.now();
    const since = new Date(now.getTime() - this.options.windowDays * DAY_MS).toISOString();
    const library = await skills.list();
    const selection = selectOptimizationCandidates(library, await skillUsage.list({ since }), await feedback.list({ since }), {
      ...this.options,
      now,
    });
    if (selection.candidates.length === 0) return { skipped: 'no at-risk or sparse skills' };

    const notes = [`${selection.atRisk} at-risk and ${selection.sparse} sparse skill(s) sent`];
    if (selection.protectedSkipped > 0) notes.push(`${selection.protectedSkipped} protected skill(s) left out`);
    if (selection.deferred > 0)
      notes.push(`maxSkillsPerRun (${this.options.maxSkillsPerRun}) reached: ${selection.deferred} candidate(s) left for a later run`);

    const byName = new Map(selection.candidates.map((candidate) => [candidate.skill.name, candidate]));
    const budget = Math.max(
      Math.floor(this.options.tokenBudget / 4),
      this.options.tokenBudget - estimateTokens(SKILL_OPTIMIZE_DIRECTIVE) - FRAME_TOKENS,
    );
    const cost = (name: string) => estimateTokens(`${renderCandidate(byName.get(name)!, this.options)}\n\n`);
    const calls = packIntoCalls(
      selection.candidates.map((candidate) => [candidate.skill.name]),
      cost,
      budget,
    ).map((names) => names.map((name) => byName.get(name)!));

    const review = new SkillOptimizationReview(new Set(library.map((skill) => skill.name)), now);
    const replyBudget = new RunBudget(0);
    let proposed = 0;
    for (const [index, candidates] of calls.entries()) {
      context.signal.throwIfAborted();
      const reply = await gateway.ask({
        pass: this.name,
        directiveFile: SKILL_OPTIMIZE_DIRECTIVE_FILE,
        builtInDirective: SKILL_OPTIMIZE_DIRECTIVE,
        data: renderOptimizationData({ candidates, sparseChars: this.options.sparseChars, windowDays: this.options.windowDays }),
        schema: skillOptimizationReplySchema,
        signal: context.signal,
      });
      proposed += reply.toSave.length;
      // One rewrite per skill sent in the call, within the reply allowance (SPEC B11).
      if (!replyBudget.admit(index + 1, { saves: reply.toSave.length, deletions: 0 }, replyAllowance(candidates.length))) continue;
      review.review(reply, { call: index + 1, candidates: new Map(candidates.map((candidate) => [candidate.skill.name, candidate])) });
    }

    notes.push(`${calls.length} model call(s)`, `${review.rewritten} skill(s) rewritten`, ...review.notes);
    return {
      operations: review.operations(),
      itemsProcessed: selection.candidates.length,
      notes,
      refusals: review.refusals,
      misbehaviour: replyBudget.misbehaviour,
      proposals: { proposed, accepted: review.rewritten },
      details: {
        atRisk: selection.candidates
          .filter(isAtRisk)
          .map((candidate) => ({ name: candidate.skill.name, sessions: candidate.failedSessions })),
        sparse: selection.candidates.filter((candidate) => candidate.sparse).map((candidate) => candidate.skill.name),
      },
    };
  }
}

function isAtRisk(candidate: OptimizationCandidate): boolean {
  return candidate.failedSessions.length > 0;
}
