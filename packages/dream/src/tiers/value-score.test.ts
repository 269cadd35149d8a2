import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tierMigrationOptionsSchema } from './tier-options';
import { type ValueFacts, valueScore } from './value-score';

const options = tierMigrationOptionsSchema.parse({});

const facts = fc.record({
  category: fc.constantFrom('general', 'work/projects', 'user-preferences/food', 'episodes'),
  importance: fc.double({ min: 0, max: 1, noNaN: true }),
  reinforcementCount: fc.integer({ min: 1, max: 1000 }),
  idleDays: fc.double({ min: 0, max: 5000, noNaN: true }),
  recallScore: fc.double({ min: 0, max: 1, noNaN: true }),
  superseded: fc.boolean(),
  fromCorrection: fc.boolean(),
});

const plain = (overrides: Partial<ValueFacts> = {}): ValueFacts => ({
  category: 'general',
  importance: 0.5,
  reinforcementCount: 1,
  idleDays: 0,
  recallScore: 0,
  superseded: false,
  fromCorrection: false,
  ...overrides,
});

describe('valueScore (SPEC B13)', () => {
  it('is a number in 0..1 with parts in 0..1, for any facts', () => {
    fc.assert(
      fc.property(facts, (input) => {
        const { score, parts, weighted } = valueScore(input, options);
        for (const value of [score, weighted, ...Object.values(parts)]) expect(value >= 0 && value <= 1).toBe(true);
      }),
    );
  });

  it('never falls when recall, importance or reinforcement rise, or when the entry is idle for less time', () => {
    fc.assert(
      fc.property(facts, fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 50 }), (input, more, extra) => {
        const base = valueScore(input, options).score;
        const raised = [
          { ...input, recallScore: Math.max(input.recallScore, more) },
          { ...input, importance: Math.max(input.importance, more) },
          { ...input, reinforcementCount: input.reinforcementCount + extra },
          { ...input, idleDays: input.idleDays * more },
        ];
        for (const better of raised) expect(valueScore(better, options).score).toBeGreaterThanOrEqual(base - 1e-12);
      }),
    );
  });

  it('pins protected categories at 1, caps superseded entries, floors corrections', () => {
    fc.assert(
      fc.property(facts, (input) => {
        const { score, rule } = valueScore(input, options);
        if (input.category.startsWith('user-preferences')) expect({ score, rule }).toEqual({ score: 1, rule: 'pinned' });
        else if (input.superseded) expect(score).toBeLessThanOrEqual(options.supersededCeiling);
        else if (input.fromCorrection) expect(score).toBeGreaterThanOrEqual(options.correctionFloor);
      }),
    );
  });

  it('is the weighted sum of its parts when no rule applies, with the weights from the options', () => {
    const weights = { recall: 0.7, importance: 0.1, reinforcement: 0.1, recency: 0.1 };
    const custom = tierMigrationOptionsSchema.parse({ weights });
    fc.assert(
      fc.property(facts, (input) => {
        const free = { ...input, category: 'general', superseded: false, fromCorrection: false };
        const { score, parts } = valueScore(free, custom);
        const sum =
          weights.recall * parts.recall +
          weights.importance * parts.importance +
          weights.reinforcement * parts.reinforcement +
          weights.recency * parts.recency;
        expect(score).toBeCloseTo(sum, 12);
      }),
    );
  });

  it('sends a never-recalled entry of default importance cold after two weeks, keeps an important or recalled one hot, and lets a recalled cold one back', () => {
    expect(valueScore(plain({ idleDays: 14 }), options).score).toBeLessThanOrEqual(options.demoteBelow);
    expect(valueScore(plain({ idleDays: 14, importance: 0.9 }), options).score).toBeGreaterThan(options.demoteBelow);
    expect(valueScore(plain({ idleDays: 14, recallScore: 0.5 }), options).score).toBeGreaterThan(options.demoteBelow);
    expect(valueScore(plain({ idleDays: 1, recallScore: 0.8, importance: 0.6 }), options).score).toBeGreaterThanOrEqual(
      options.promoteAbove,
    );
    expect(valueScore(plain({ idleDays: 1, recallScore: 0.5 }), options).score).toBeLessThan(options.promoteAbove);
  });

  it('refuses weights that do not sum to 1 and thresholds without a gap', () => {
    expect(tierMigrationOptionsSchema.safeParse({ weights: { recall: 0.9 } }).success).toBe(false);
    expect(tierMigrationOptionsSchema.safeParse({ demoteBelow: 0.7, promoteAbove: 0.7 }).success).toBe(false);
    expect(tierMigrationOptionsSchema.safeParse({ maxMovesPerRun: 0 }).success).toBe(false);
    expect(tierMigrationOptionsSchema.safeParse({ pinnedCategories: ['../x'] }).success).toBe(false);
  });
});
