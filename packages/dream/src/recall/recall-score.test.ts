import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recallSignalsOptionsSchema } from './recall-options';
import { recallSignals } from './recall-score';

const options = recallSignalsOptionsSchema.parse({});
const now = new Date('2026-06-15T00:00:00.000Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

describe('recallSignals', () => {
  it('combines frequency, relevance, recency (half-life 14 days) and freshness with 0.30/0.35/0.20/0.15', () => {
    const signals = recallSignals({ hits: 3, relevanceSum: 2.4, lastHitAt: daysAgo(14) }, daysAgo(30), now, options);
    expect(signals.frequency).toBeCloseTo(0.5);
    expect(signals.relevance).toBeCloseTo(0.8);
    expect(signals.recency).toBeCloseTo(0.5);
    expect(signals.freshness).toBeCloseTo(0.5);
    expect(signals.score).toBeCloseTo(0.3 * 0.5 + 0.35 * 0.8 + 0.2 * 0.5 + 0.15 * 0.5);
  });

  it('gives nothing for an entry never recalled but its freshness', () => {
    const signals = recallSignals({ hits: 0, relevanceSum: 0, lastHitAt: daysAgo(0) }, daysAgo(0), now, options);
    expect(signals).toMatchObject({ frequency: 0, relevance: 0 });
  });

  it('refuses weights that do not sum to 1', () => {
    expect(recallSignalsOptionsSchema.safeParse({ weights: { frequency: 0.9 } }).success).toBe(false);
    expect(
      recallSignalsOptionsSchema.safeParse({ weights: { frequency: 0.25, relevance: 0.25, recency: 0.25, freshness: 0.25 } }).success,
    ).toBe(true);
  });

  it('keeps the score in 0..1 and never lowers it for more recalls of the same quality', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        (hits, relevance, hitDays, seenDays) => {
          const at = (extra: number) =>
            recallSignals(
              { hits: hits + extra, relevanceSum: relevance * (hits + extra), lastHitAt: daysAgo(hitDays) },
              daysAgo(seenDays),
              now,
              options,
            );
          const one = at(0);
          const more = at(1);
          expect(one.score).toBeGreaterThanOrEqual(0);
          expect(one.score).toBeLessThanOrEqual(1);
          expect(more.score).toBeGreaterThanOrEqual(one.score - 1e-12);
        },
      ),
    );
  });
});
