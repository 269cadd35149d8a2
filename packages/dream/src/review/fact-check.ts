import { detectInjection, type MemoryEntry } from '@reverie/core';
import { judgeFactPreservation } from '@reverie/core/internal';

/** Whether a merged or rewritten text keeps the facts of its sources and adds none (SPEC B11). */
export interface FactVerdict {
  ok: boolean;
  /** What the text lost, as the repair request names it (names, numbers, dates, negations, then words). */
  missing: string[];
  /** What the text says that no source says. */
  added: string[];
  /** The judge's reasons, one short sentence each (`missing number "3"`, `adds name "Berlin"`). */
  reasons: string[];
  /** One line for the refusal, empty when ok. */
  reason: string;
}

type Source = Pick<MemoryEntry, 'content'> & Partial<Pick<MemoryEntry, 'createdAt' | 'lastSeenAt'>>;

/**
 * The fact check every merge and rewrite goes through: `judgeFactPreservation` of the sources'
 * texts against the new text, both ways (coverage and novelty; see docs/dream-passes.md, "How a
 * merge is checked"). The days the sources were first and last noted are known dates: a rewrite
 * that anchors "last week" to them adds nothing. `strict` (protected entries) uses the stricter
 * thresholds. Pure.
 */
export function checkMergeFacts(sources: readonly Source[], merged: string, options: { strict: boolean }): FactVerdict {
  const knownDates = [
    ...new Set(
      sources
        .flatMap((source) => [source.createdAt, source.lastSeenAt])
        .filter((at): at is string => !!at)
        .map((at) => at.slice(0, 10)),
    ),
  ];
  const judgement = judgeFactPreservation(
    sources.map((source) => source.content),
    merged,
    { strict: options.strict, knownDates },
  );
  if (judgement.ok) return { ok: true, missing: [], added: [], reasons: [], reason: '' };
  const facts = (groups: typeof judgement.missing) => [
    ...groups.names,
    ...groups.numbers,
    ...groups.dates,
    ...groups.negations,
    ...groups.words,
  ];
  return {
    ok: false,
    missing: facts(judgement.missing),
    added: facts(judgement.added),
    reasons: judgement.reasons,
    reason: `it does not keep the facts of its sources or adds to them: ${judgement.reasons.join('; ')}`,
  };
}

/**
 * The share of a skill's terms a rewrite keeps at least: lower than a memory merge's, because a
 * better procedure rewords more; an unrelated rewrite keeps next to nothing.
 */
export const MIN_SKILL_COVERAGE = 0.34;

/**
 * The check a skill rewrite or merge goes through. A skill is a procedure the model is asked to
 * improve, so new text is expected and novelty is not held against it; what it must do is keep
 * what its sources say (names, numbers, negations, and at least `MIN_WORD_COVERAGE` of their
 * words, `MIN_SKILL_COVERAGE`, through `judgeFactPreservation`'s normalisation) and carry no instructions addressed to
 * the assistant. Returns the reason to refuse, or undefined. Pure.
 */
export function skillRewriteProblem(sources: readonly string[], rewritten: string): string | undefined {
  const injected = detectInjection(sources, rewritten, { procedure: true });
  if (injected.length > 0) return `it injects ${injected.join(', ')}`;
  const judgement = judgeFactPreservation(sources, rewritten);
  const lost = [...judgement.missing.names, ...judgement.missing.numbers, ...judgement.missing.negations];
  if (lost.length > 0) return `it drops what its source(s) say: ${lost.map((fact) => JSON.stringify(fact)).join(', ')}`;
  if (judgement.coverage < MIN_SKILL_COVERAGE) {
    return `it keeps ${Math.round(judgement.coverage * 100)} % of what its source(s) say (at least ${Math.round(MIN_SKILL_COVERAGE * 100)} % needed); missing ${judgement.missing.words
      .slice(0, 12)
      .map((word) => JSON.stringify(word))
      .join(', ')}`;
  }
  return undefined;
}
