import { type FeedbackSignal, type Skill, type SkillUsage } from '@reverie/core';
import { matchesAnySkillPattern } from '@reverie/core/internal';

const DAY_MS = 86_400_000;
/** Failure context shown per at-risk skill: the most recent signals. */
export const MAX_FAILURE_SIGNALS = 10;

/** A skill the model is asked to improve (SPEC D10). */
export interface OptimizationCandidate {
  skill: Skill;
  /** Sessions in the window where the skill was used and something went wrong; empty when only sparse. */
  failedSessions: string[];
  /** The feedback of those sessions (corrections, negative signals, poor or fair summaries), newest first, at most `MAX_FAILURE_SIGNALS`. */
  failures: FeedbackSignal[];
  /** Content under `sparseChars` and older than `sparseMinAgeDays`. */
  sparse: boolean;
}

export interface CandidateSelection {
  /** At-risk skills first (most failed sessions first), then sparse ones, at most `maxSkillsPerRun`. */
  candidates: OptimizationCandidate[];
  atRisk: number;
  sparse: number;
  /** Candidates left for a later run by `maxSkillsPerRun`. */
  deferred: number;
  /** Skills that would have been candidates but match `protectedSkills`. */
  protectedSkipped: number;
}

export interface CandidateOptions {
  now: Date;
  sparseChars: number;
  sparseMinAgeDays: number;
  protectedSkills: readonly string[];
  maxSkillsPerRun: number;
}

/** A signal that says a session went wrong: a correction, or a poor or fair session summary. */
export function isFailureSignal(signal: FeedbackSignal): boolean {
  return signal.kind === 'correction' || (signal.kind === 'session-summary' && (signal.rating === 'poor' || signal.rating === 'fair'));
}

/** What belongs to the failure context of a failed session: its failure signals and its negative ones. */
function isFailureContext(signal: FeedbackSignal): boolean {
  return isFailureSignal(signal) || signal.kind === 'negative';
}

/**
 * SPEC D10: the skills worth a rewrite. `usages` and `feedback` are those of the window. A skill
 * is at risk when it was used in a session that has a correction or a poor/fair session summary;
 * it travels with that session's feedback. A skill is sparse when its content is under
 * `sparseChars` characters and it was created at least `sparseMinAgeDays` ago. Protected skills
 * are never candidates. Pure.
 */
export function selectOptimizationCandidates(
  skills: readonly Skill[],
  usages: readonly SkillUsage[],
  feedback: readonly FeedbackSignal[],
  options: CandidateOptions,
): CandidateSelection {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  const failedSessions = new Set(feedback.filter(isFailureSignal).map((signal) => signal.sessionId));
  const contextBySession = new Map<string, FeedbackSignal[]>();
  for (const signal of feedback) {
    if (!failedSessions.has(signal.sessionId) || !isFailureContext(signal)) continue;
    const list = contextBySession.get(signal.sessionId);
    if (list) list.push(signal);
    else contextBySession.set(signal.sessionId, [signal]);
  }

  let protectedSkipped = 0;
  const isProtected = (name: string) => matchesAnySkillPattern(name, options.protectedSkills);
  const sessionsBySkill = new Map<string, Set<string>>();
  for (const usage of usages) {
    if (!failedSessions.has(usage.sessionId) || !byName.has(usage.skill)) continue;
    const sessions = sessionsBySkill.get(usage.skill);
    if (sessions) sessions.add(usage.sessionId);
    else sessionsBySkill.set(usage.skill, new Set([usage.sessionId]));
  }

  const sparseBefore = options.now.getTime() - options.sparseMinAgeDays * DAY_MS;
  const isSparse = (skill: Skill) => skill.content.length < options.sparseChars && Date.parse(skill.createdAt) <= sparseBefore;

  const atRisk: OptimizationCandidate[] = [];
  for (const [name, sessions] of sessionsBySkill) {
    if (isProtected(name)) {
      protectedSkipped++;
      continue;
    }
    const skill = byName.get(name)!;
    const failures = [...sessions]
      .flatMap((session) => contextBySession.get(session) ?? [])
      .sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0))
      .slice(0, MAX_FAILURE_SIGNALS);
    atRisk.push({ skill, failedSessions: [...sessions], failures, sparse: isSparse(skill) });
  }
  atRisk.sort((a, b) => b.failedSessions.length - a.failedSessions.length || byNameOrder(a.skill, b.skill));

  const sparse: OptimizationCandidate[] = [];
  for (const skill of skills) {
    if (sessionsBySkill.has(skill.name) || !isSparse(skill)) continue;
    if (isProtected(skill.name)) {
      protectedSkipped++;
      continue;
    }
    sparse.push({ skill, failedSessions: [], failures: [], sparse: true });
  }
  sparse.sort(byNameOrderOf);

  const all = [...atRisk, ...sparse];
  const candidates = all.slice(0, options.maxSkillsPerRun);
  return {
    candidates,
    atRisk: candidates.filter((candidate) => candidate.failedSessions.length > 0).length,
    sparse: candidates.filter((candidate) => candidate.failedSessions.length === 0).length,
    deferred: all.length - candidates.length,
    protectedSkipped,
  };
}

function byNameOrder(a: Skill, b: Skill): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function byNameOrderOf(a: OptimizationCandidate, b: OptimizationCandidate): number {
  return byNameOrder(a.skill, b.skill);
}
