import { skillRewriteProblem } from '../../review/fact-check';
import { type Skill, skillSchema } from '@reverie/core';
import type { DreamOperation } from '@reverie/dream-state';
import { stripRetentionTags } from '../memory-consolidation/normalise-content';
import { filterSeeAlso, stripSkillTags } from '../skill-common/skill-draft-hygiene';
import type { OptimizationCandidate } from './optimization-candidates';
import type { ProposedRewrite, SkillOptimizationReply } from './skill-optimization-reply';

/** What one call showed the model, for the guards. */
export interface OptimizationCallScope {
  /** 1-based number of the call in the run (for messages). */
  call: number;
  /** The candidates sent in this call, by name. */
  candidates: ReadonlyMap<string, OptimizationCandidate>;
}

interface AcceptedRewrite {
  skill: Skill;
  original: Skill;
  reason: string;
}

const quoted = (values: readonly string[]) => values.map((value) => JSON.stringify(value)).join(', ');

/**
 * SPEC D10, D17, B4: the guards every skill-optimization reply goes through, one rewrite at a
 * time, and the skills the run will save.
 *
 * - Only a skill sent as a candidate in the same call may be rewritten; any other name is
 *   refused as unknown. A name rewritten earlier in the run keeps its first rewrite.
 * - Retention hints are stripped from summary and content; an empty summary or content is
 *   refused.
 * - Content shorter than the original is refused unless the reply says why (`shorterBecause`);
 *   the reason is then recorded in the notes and in the operation's reason.
 * - `seeAlso`, when given, keeps only names of skills that exist; when absent the skill keeps
 *   its related skills. A rewrite identical to the original is not saved.
 * - The rewrite keeps the original's name, createdAt and lastUsedAt, and is a `skill.save`
 *   conditioned on the original's updatedAt (a skill changed since is not clobbered).
 */
export class SkillOptimizationReview {
  readonly refusals: string[] = [];
  readonly notes: string[] = [];
  private readonly accepted = new Map<string, AcceptedRewrite>();
  private readonly stamp: string;

  constructor(
    private readonly existing: ReadonlySet<string>,
    now: Date,
  ) {
    this.stamp = now.toISOString();
  }

  /** Checks one call's reply rewrite by rewrite and records what passes. */
  review(reply: SkillOptimizationReply, scope: OptimizationCallScope): void {
    reply.toSave.forEach((item, index) =>
      this.reviewItem(item, `call ${scope.call}, rewrite ${index + 1} (${JSON.stringify(item.name)})`, scope),
    );
  }

  /** How many skills the run will rewrite. */
  get rewritten(): number {
    return this.accepted.size;
  }

  operations(): DreamOperation[] {
    return [...this.accepted.values()].map(({ skill, original, reason }) => ({
      op: 'skill.save',
      skill,
      expectUpdatedAt: original.updatedAt,
      reason,
    }));
  }

  private reviewItem(item: ProposedRewrite, where: string, scope: OptimizationCallScope): void {
    const refuse = (reason: string): void => {
      this.refusals.push(`${where} refused: ${reason}`);
    };
    const draft = stripSkillTags(item);
    const candidate = scope.candidates.get(draft.name);
    if (!candidate) return refuse(`unknown: ${JSON.stringify(draft.name)} was not sent as a candidate in this call`);
    if (this.accepted.has(draft.name))
      return refuse(`${JSON.stringify(draft.name)} was already rewritten earlier in this run; the first rewrite wins`);
    if (draft.summary === '') return refuse('its summary is empty');
    if (draft.content === '') return refuse('its content is empty');

    const original = candidate.skill;
    const shorterBecause = item.shorterBecause === undefined ? undefined : stripRetentionTags(item.shorterBecause) || undefined;
    const shorter = draft.content.length < original.content.length;
    if (shorter && shorterBecause === undefined) {
      return refuse(
        `the rewrite is shorter than the original (${original.content.length} → ${draft.content.length} characters) and gives no shorterBecause`,
      );
    }

    // The rewrite keeps what the skill says (new steps are welcome; a shorter one says why it drops
    // what it drops) and carries no instructions to the assistant (SPEC B11).
    const rewriteProblem = skillRewriteProblem([original.content], draft.content);
    if (rewriteProblem && (shorterBecause === undefined || rewriteProblem.startsWith('it injects'))) return refuse(rewriteProblem);

    let seeAlso = original.seeAlso;
    if (item.seeAlso !== undefined) {
      const related = filterSeeAlso(item.seeAlso, this.existing, original.name);
      if (related.dropped.length > 0) this.notes.push(`${where}: seeAlso ${quoted(related.dropped)} dropped: no such skill`);
      seeAlso = related.kept;
    }
    if (
      draft.summary === original.summary &&
      draft.content === original.content &&
      JSON.stringify(seeAlso) === JSON.stringify(original.seeAlso)
    ) {
      this.notes.push(`${where}: identical to the stored skill; nothing to save`);
      return;
    }

    const parsed = skillSchema.safeParse({ ...original, summary: draft.summary, content: draft.content, seeAlso, updatedAt: this.stamp });
    if (!parsed.success)
      return refuse(
        `it is not a valid skill (${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')})`,
      );

    const why: string[] = [];
    if (candidate.failedSessions.length > 0)
      why.push(`used in ${candidate.failedSessions.length} session(s) with problems (${quoted(candidate.failedSessions)})`);
    if (candidate.sparse) why.push(`sparse (${original.content.length} characters)`);
    let reason = `skill-optimization: rewrote ${original.name}: ${why.join('; ')}`;
    if (shorter) {
      const change = `shorter (${original.content.length} → ${draft.content.length} characters) because: ${shorterBecause}`;
      reason += `; ${change}`;
      this.notes.push(`${original.name}: ${change}`);
    }
    this.accepted.set(original.name, { skill: parsed.data, original, reason });
  }
}
