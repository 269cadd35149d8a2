import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { resolveMemoryDraft } from '../memory/resolve-memory-draft';
import type { MemoryEntry } from '../schemas/memory-entry';
import { ManualClock } from '../time/system-clock';
import {
  DAY_MS,
  decayImportance,
  type DecayOptions,
  effectiveImportance,
  effectiveImportanceAt,
  resolveDecayOptions,
  withEffectiveImportance,
  withEffectiveImportanceAt,
} from './importance-decay';

const iso = (ms: number) => new Date(ms).toISOString();
const LAST_SEEN = Date.parse('2026-01-01T00:00:00.000Z');
const day = (days: number) => LAST_SEEN + days * DAY_MS;

const options: fc.Arbitrary<DecayOptions> = fc.record({
  graceDays: fc.double({ min: 0, max: 60, noNaN: true }),
  halfLifeDays: fc.double({ min: 1, max: 200, noNaN: true }),
  floor: fc.double({ min: 0, max: 0.5, noNaN: true }),
});

/** One cycle of the importance-decay pass as it was before decay moved to read time (the oracle). */
function rewritingPass(stored: number, lastSeenAt: string, cursor: string | undefined, now: string, decay: DecayOptions): number {
  const decayed = decayImportance(stored, { lastSeenAt, from: cursor ?? lastSeenAt, to: now }, decay);
  return Math.round(decayed * 10_000) / 10_000;
}

function entry(importance: number, fields: Partial<MemoryEntry> = {}): MemoryEntry {
  return {
    id: '0123456789ab',
    content: 'x',
    category: 'general',
    tags: [],
    createdAt: iso(LAST_SEEN),
    updatedAt: iso(LAST_SEEN),
    lastSeenAt: iso(LAST_SEEN),
    reinforcementCount: 1,
    importance,
    metadata: {},
    ...fields,
  };
}

describe('effectiveImportance (examples)', () => {
  it('counts the stored importance as of lastSeenAt when importanceAt is absent', () => {
    expect(effectiveImportance(entry(0.8), new Date(day(30 + 45)))).toBeCloseTo(0.4, 12);
    expect(effectiveImportance(entry(0.8), new Date(day(29)))).toBe(0.8);
  });

  it('decays only the time after importanceAt', () => {
    const promoted = entry(0.8, { importanceAt: iso(day(75)) });
    expect(effectiveImportance(promoted, new Date(day(75)))).toBe(0.8);
    expect(effectiveImportance(promoted, new Date(day(120)))).toBeCloseTo(0.4, 12);
  });

  it('uses the options it is given, and turns off with halfLifeDays 0', () => {
    expect(effectiveImportance(entry(0.8), new Date(day(10 + 45)), { graceDays: 10 })).toBeCloseTo(0.4, 12);
    expect(effectiveImportance(entry(0.8), new Date(day(1000)), { halfLifeDays: 0 })).toBe(0.8);
  });

  it('refuses nonsensical options with INVALID_OPTIONS', () => {
    expect(() => resolveDecayOptions({ graceDays: -1 })).toThrowError(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => resolveDecayOptions({ floor: 1.5 })).toThrowError(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => resolveDecayOptions({ halfLifeDays: 'long' as never })).toThrowError(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('halfLifeDays') }),
    );
    expect(() => resolveDecayOptions({ halfLife: 10 } as never)).toThrowError(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('halfLife') }),
    );
    expect(resolveDecayOptions({ graceDays: 7 })).toEqual({ graceDays: 7, halfLifeDays: 45, floor: 0.1 });
  });
});

describe('effectiveImportance against the rewriting pass (properties)', () => {
  /**
   * Random cycles at random times, some followed at once by a rewrite that sets importance from
   * the value the writer saw (promotion, a merge). The old world stores the pass's rounded value
   * and its cursor; the new world stores only what rewrites write, stamped with importanceAt.
   * Read at every cycle, the two agree to within the 4-decimal rounding of the old pass.
   */
  it('equals what the rewriting pass would have stored, rewrites included', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        options,
        fc.array(
          fc.record({
            gapDays: fc.double({ min: 0, max: 40, noNaN: true }),
            rewrite: fc.option(fc.double({ min: -0.3, max: 0.3, noNaN: true }), { freq: 3 }),
          }),
          { minLength: 1, maxLength: 25 },
        ),
        (start, decay, cycles) => {
          const clock = new ManualClock(iso(LAST_SEEN));
          let stored = entry(start);
          let old = start;
          let cursor: string | undefined;
          let at = LAST_SEEN;
          cycles.forEach(({ gapDays, rewrite }, index) => {
            at += Math.round(gapDays * DAY_MS);
            const now = iso(at);
            old = rewritingPass(old, stored.lastSeenAt, cursor, now, decay);
            cursor = now;
            const effective = effectiveImportance(stored, new Date(at), decay);
            expect(Math.abs(effective - old)).toBeLessThanOrEqual((index + 1) * 5e-5 + 1e-12);
            if (rewrite !== null) {
              const clampUnit = (value: number) => Math.min(1, Math.max(0, value));
              old = clampUnit(old + rewrite);
              clock.set(now);
              stored = resolveMemoryDraft(
                { ...stored, importance: clampUnit(effective + rewrite), importanceAt: now },
                () => stored,
                clock,
                undefined,
                decay,
              );
            }
          });
        },
      ),
    );
  });

  it('never rises with time, keeps the floor, and stays put during the grace period', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        options,
        fc.option(fc.integer({ min: 0, max: 200 }), { nil: undefined }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        (value, decay, importanceAtDay, a, b) => {
          const subject = entry(value, importanceAtDay === undefined ? {} : { importanceAt: iso(day(importanceAtDay)) });
          const [earlier, later] = a <= b ? [a, b] : [b, a];
          const atEarlier = effectiveImportance(subject, new Date(day(earlier)), decay);
          const atLater = effectiveImportance(subject, new Date(day(later)), decay);
          expect(atLater).toBeLessThanOrEqual(atEarlier);
          expect(atEarlier).toBeLessThanOrEqual(value);
          if (value >= decay.floor) expect(atLater).toBeGreaterThanOrEqual(decay.floor);
          else expect(atLater).toBe(value);
          if (later <= decay.graceDays) expect(atLater).toBe(value);
        },
      ),
    );
  });

  it('gives the same values one entry at a time and in bulk (effectiveImportanceAt, for browsing)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        options,
        fc.option(fc.integer({ min: 0, max: 200 }), { nil: undefined }),
        fc.integer({ min: 0, max: 400 }),
        (value, decay, importanceAtDay, at) => {
          const subject = entry(value, importanceAtDay === undefined ? {} : { importanceAt: iso(day(importanceAtDay)) });
          expect(effectiveImportanceAt(new Date(day(at)), decay)(subject)).toBe(effectiveImportance(subject, new Date(day(at)), decay));
        },
      ),
    );
  });

  it('gives the same entries one at a time and in bulk (withEffectiveImportanceAt, for a pass over every entry)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        options,
        fc.option(fc.integer({ min: 0, max: 200 }), { nil: undefined }),
        fc.integer({ min: 0, max: 400 }),
        (value, decay, importanceAtDay, at) => {
          const subject = entry(value, importanceAtDay === undefined ? {} : { importanceAt: iso(day(importanceAtDay)) });
          const bulk = withEffectiveImportanceAt(new Date(day(at)), decay)(subject);
          const single = withEffectiveImportance(subject, new Date(day(at)), decay);
          expect(bulk).toEqual(single);
          expect(bulk === subject).toBe(single === subject);
          expect(Object.keys(bulk)).toEqual(Object.keys(single));
        },
      ),
    );
  });

  it('composes: storing the effective value as of s, then reading at t, equals reading at t', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        options,
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 300 }),
        (value, decay, s, extra) => {
          const subject = entry(value);
          const t = s + extra;
          const materialised = entry(effectiveImportance(subject, new Date(day(s)), decay), { importanceAt: iso(day(s)) });
          const direct = effectiveImportance(subject, new Date(day(t)), decay);
          expect(Math.abs(effectiveImportance(materialised, new Date(day(t)), decay) - direct)).toBeLessThanOrEqual(1e-9);
        },
      ),
    );
  });
});

describe('resolveMemoryDraft and importanceAt', () => {
  const clock = new ManualClock(iso(day(100)));
  const stored = entry(0.8);

  it('stamps a new importance on an existing entry with now', () => {
    const saved = resolveMemoryDraft({ id: stored.id, content: 'x', importance: 0.6 }, () => stored, clock);
    expect(saved).toMatchObject({ importance: 0.6, importanceAt: clock.now().toISOString() });
  });

  it('keeps the stored pair when the draft leaves importance out or repeats it', () => {
    for (const draft of [
      { id: stored.id, content: 'y' },
      { ...stored, content: 'y' },
    ]) {
      const saved = resolveMemoryDraft(draft, () => stored, clock);
      expect(saved.importance).toBe(0.8);
      expect(saved.importanceAt).toBeUndefined();
    }
  });

  it('keeps the decay accrued so far when lastSeenAt moves', () => {
    const now = clock.now();
    const saved = resolveMemoryDraft({ id: stored.id, content: 'x', lastSeenAt: now }, () => stored, clock);
    expect(saved.importance).toBeCloseTo(effectiveImportance(stored, now), 12);
    expect(saved.importanceAt).toBe(now.toISOString());
    // Seen again: a fresh grace period, and nothing lost so far.
    expect(effectiveImportance(saved, new Date(day(120)))).toBe(saved.importance);
  });

  it('keeps the decay so far when a spread of the stored entry moves lastSeenAt (a reinforcement)', () => {
    const promoted = entry(0.8, { importanceAt: iso(day(40)) });
    const now = clock.now();
    const saved = resolveMemoryDraft({ ...promoted, lastSeenAt: now, reinforcementCount: 2 }, () => promoted, clock);
    expect(saved.importance).toBeCloseTo(effectiveImportance(promoted, now), 12);
    expect(saved.importance).toBeLessThan(0.8);
    expect(saved.importanceAt).toBe(now.toISOString());
  });

  it('takes a draft’s own importanceAt as given, and leaves a new entry’s unset', () => {
    const at = iso(day(50));
    expect(resolveMemoryDraft({ id: stored.id, content: 'x', importance: 0.3, importanceAt: at }, () => stored, clock).importanceAt).toBe(
      at,
    );
    expect(resolveMemoryDraft({ content: 'x', importance: 0.3 }, () => undefined, clock).importanceAt).toBeUndefined();
  });
});
