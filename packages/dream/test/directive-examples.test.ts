import { describe, expect, it } from 'vitest';
import { Bm25Index, detectInjection } from '@reverie/core';
import { directiveExamples, FACT_RULES, pathNameProblem, SKILL_NAME_RULES } from '@reverie/core/internal';
import { indexLookup } from '../src/review/neighbour-lookup';
import { SourceSimilarity } from '../src/review/source-similarity';
import { CONSOLIDATION_DIRECTIVE } from '../src/passes/memory-consolidation/render-consolidation-prompt';
import { PREFERENCE_DIRECTIVE } from '../src/passes/preference-inference/render-preference-prompt';
import { SKILL_CONSOLIDATION_DIRECTIVE } from '../src/passes/skill-consolidation/render-skill-consolidation-prompt';
import { SKILL_GAP_DIRECTIVE } from '../src/passes/skill-gap/render-skill-gap-prompt';
import { checkMergeFacts } from '../src/review/fact-check';

/**
 * A prompt and the guard that judges its replies are one rule book (SPEC B11): every example a
 * directive gives passes the guard its replies meet, and every rewrite it forbids is refused.
 * The examples are read back from the rendered directives, so an edit to either side fails here.
 */
describe('the examples each directive gives meet its guard', () => {
  const examples = directiveExamples(CONSOLIDATION_DIRECTIVE);

  it('memory consolidation states every rule of the rule book, with examples both ways', () => {
    expect(examples.filter((example) => example.allowed).length).toBeGreaterThanOrEqual(FACT_RULES.length);
    expect(examples.some((example) => !example.allowed)).toBe(true);
    for (const rule of FACT_RULES) expect(CONSOLIDATION_DIRECTIVE).toContain(rule.says);
    expect(CONSOLIDATION_DIRECTIVE).not.toMatch(/Do not write dates/);
  });

  it.each(examples.map((example) => [example.allowed ? 'accepts' : 'refuses', example.from, example.to, example]))(
    'memory consolidation: the merge check %s %j → %j',
    (_verdict, _from, _to, example) => {
      const noted = example.noted ?? '2026-03-09';
      const source = { content: example.from, createdAt: `${noted}T10:00:00.000Z`, lastSeenAt: `${noted}T10:00:00.000Z` };
      const verdict = checkMergeFacts([source], example.to, { strict: false });
      expect(verdict.ok, verdict.reason).toBe(example.allowed);
    },
  );

  it('memory consolidation: the pair it says the host refuses to merge, the similarity check refuses', () => {
    const [, first, second] = /such as "([^"]+)" and "([^"]+)"/.exec(CONSOLIDATION_DIRECTIVE) ?? [];
    expect(first && second).toBeTruthy();
    // A memory about one person, as a real one is: her name is in most entries.
    const texts = new Map([
      ['a', first!],
      ['b', second!],
      ['c', 'Ana works as a nurse at the city hospital'],
      ['d', 'Ana has a cat called Miso'],
      ['e', 'Ana moved to Porto in 2021'],
      ['f', 'Ana is learning to play the cello'],
      ['g', 'Ana runs every Sunday morning'],
      ['h', 'Ana visited her sister in Lisbon'],
    ]);
    const index = new Bm25Index();
    index.setAll([...texts].map(([id, text]) => ({ id, text })));
    const similarity = new SourceSimilarity(
      indexLookup(index, (id) => texts.get(id)),
      (id) => texts.get(id),
      { neighbours: 5, minNeighbourScore: 0.2, minCosine: 0.5 },
    );
    expect(similarity.unconnected(['a', 'b'])).not.toEqual([]);
  });

  it('the skill names the skill directives give are valid skill names', () => {
    const names = [...`${SKILL_GAP_DIRECTIVE}\n${SKILL_CONSOLIDATION_DIRECTIVE}`.matchAll(/"([a-z0-9-]+(?:\/[a-z0-9-]+)+)"/g)].map(
      (match) => match[1]!,
    );
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(pathNameProblem(name, SKILL_NAME_RULES), name).toBeUndefined();
  });

  it('the preference the preference directive gives as an example is a plain statement the guard lets through', () => {
    const [, example] = /for example "([^"]+)"/.exec(PREFERENCE_DIRECTIVE) ?? [];
    expect(example).toBeDefined();
    expect(detectInjection([], example!)).toEqual([]);
  });
});
