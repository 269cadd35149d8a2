import { describe, expect, it } from 'vitest';
import { directiveExamples, FACT_RULES, renderFactRules } from './fact-rules';
import { judgeFactPreservation } from './judge-fact-preservation';

const judge = (rewrite: { from: string; to: string; noted?: string }) =>
  judgeFactPreservation([rewrite.from], rewrite.to, rewrite.noted ? { knownDates: [rewrite.noted] } : {});

describe('the rule book of fact-keeping rewrites (SPEC B11)', () => {
  for (const rule of FACT_RULES) {
    it.each(rule.allows.map((rewrite) => [rewrite.from, rewrite.to, rewrite]))(
      `${rule.id}: the check accepts %j → %j`,
      (_from, _to, rewrite) => {
        expect(judge(rewrite).reasons).toEqual([]);
      },
    );
    it.each(rule.forbids.map((rewrite) => [rewrite.from, rewrite.to, rewrite]))(
      `${rule.id}: the check refuses %j → %j`,
      (_from, _to, rewrite) => {
        expect(judge(rewrite).ok).toBe(false);
      },
    );
  }

  it('renders every rule with its shown examples, and reads those examples back', () => {
    const text = renderFactRules();
    expect(text.split('\n')).toHaveLength(FACT_RULES.length);
    const shown = FACT_RULES.flatMap((rule) => [...rule.allows, ...rule.forbids].filter((rewrite) => rewrite.shown));
    expect(directiveExamples(text)).toHaveLength(shown.length);
    expect(directiveExamples(text)).toContainEqual({
      from: 'last week',
      to: 'the week before 2023-07-16',
      noted: '2023-07-16',
      allowed: true,
    });
    expect(directiveExamples(text)).toContainEqual({ from: 'plans to play console games', to: 'plays console games', allowed: false });
  });
});
