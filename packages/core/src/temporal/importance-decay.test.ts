import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { isReverieError } from '../errors/reverie-error';
import { DAY_MS, DEFAULT_DECAY_OPTIONS, decayImportance, type DecayOptions } from './importance-decay';

const iso = (ms: number) => new Date(ms).toISOString();
const LAST_SEEN = Date.parse('2026-01-01T00:00:00.000Z');
const daysAfter = (days: number) => iso(LAST_SEEN + days * DAY_MS);

/** Decays `importance` from a never-decayed entry seen at LAST_SEEN up to `days` later. */
const decayFor = (importance: number, days: number, options?: Partial<DecayOptions>) =>
  decayImportance(importance, { lastSeenAt: iso(LAST_SEEN), from: iso(LAST_SEEN), to: daysAfter(days) }, options);

const MIN_DATE = new Date('2020-01-01T00:00:00.000Z');
const MAX_DATE = new Date('2030-12-31T23:59:59.999Z');
const instant = fc.date({ min: MIN_DATE, max: MAX_DATE, noInvalidDate: true }).map((date) => date.getTime());
const isoTimestamp = fc.date({ min: MIN_DATE, max: MAX_DATE, noInvalidDate: true }).map((date) => date.toISOString());

const importance = fc.double({ min: 0, max: 1, noNaN: true });
const options: fc.Arbitrary<DecayOptions> = fc.record({
  graceDays: fc.double({ min: 0, max: 120, noNaN: true }),
  halfLifeDays: fc.double({ min: 0.5, max: 400, noNaN: true }),
  floor: fc.double({ min: 0, max: 0.5, noNaN: true }),
});

describe('DEFAULT_DECAY_OPTIONS', () => {
  it('is 30 days of grace, a 45-day half-life and a 0.1 floor', () => {
    expect(DEFAULT_DECAY_OPTIONS).toEqual({ graceDays: 30, halfLifeDays: 45, floor: 0.1 });
  });
});

describe('decayImportance (examples)', () => {
  it('halves 0.95 after the grace period plus one half-life', () => {
    expect(decayFor(0.95, 30 + 45)).toBeCloseTo(0.475, 12);
  });

  it('quarters after two half-lives', () => {
    expect(decayFor(0.8, 30 + 90)).toBeCloseTo(0.2, 12);
  });

  it('does nothing during the grace period', () => {
    expect(decayFor(0.95, 0)).toBe(0.95);
    expect(decayFor(0.95, 29.99)).toBe(0.95);
    expect(decayFor(0.95, 30)).toBe(0.95);
    expect(decayFor(0.95, 30.5)).toBeLessThan(0.95);
  });

  it('stops at the floor', () => {
    expect(decayFor(0.95, 10_000)).toBe(0.1);
    expect(decayFor(0.95, 10_000, { floor: 0.3 })).toBe(0.3);
  });

  it('leaves an importance already under the floor alone', () => {
    expect(decayFor(0.05, 10_000)).toBe(0.05);
    expect(decayFor(0, 10_000)).toBe(0);
  });

  it('is disabled by a half-life of zero or less', () => {
    expect(decayFor(0.95, 10_000, { halfLifeDays: 0 })).toBe(0.95);
    expect(decayFor(0.95, 10_000, { halfLifeDays: -5 })).toBe(0.95);
  });

  it('only counts time after `from`', () => {
    // Decayed already up to day 75; decaying again up to day 75 changes nothing.
    const window = { lastSeenAt: iso(LAST_SEEN), from: daysAfter(75), to: daysAfter(75) };
    expect(decayImportance(0.5, window)).toBe(0.5);
    // From day 75 to day 120 is one more half-life.
    expect(decayImportance(0.5, { ...window, to: daysAfter(120) })).toBeCloseTo(0.25, 12);
  });

  it('treats `to` before `from` as an empty window', () => {
    expect(decayImportance(0.5, { lastSeenAt: iso(LAST_SEEN), from: daysAfter(200), to: daysAfter(100) })).toBe(0.5);
  });

  it('reads offsets as instants', () => {
    // 2026-03-17T02:00:00+02:00 is exactly 75 days after 2026-01-01T00:00Z.
    const window = { lastSeenAt: '2026-01-01T00:00:00Z', from: '2026-01-01T00:00:00Z', to: '2026-03-17T02:00:00+02:00' };
    expect(decayImportance(0.95, window)).toBeCloseTo(0.475, 12);
  });

  it('accepts partial options, filling the rest from the defaults', () => {
    expect(decayFor(0.8, 10 + 45, { graceDays: 10 })).toBeCloseTo(0.4, 12);
  });

  it('rejects a malformed timestamp or nonsensical options', () => {
    const bad = { lastSeenAt: 'yesterday', from: iso(LAST_SEEN), to: daysAfter(100) };
    expect(() => decayImportance(0.5, bad)).toThrowError(expect.objectContaining({ code: 'INVALID_INPUT' }));
    for (const invalid of [{ graceDays: -1 }, { floor: 2 }, { floor: Number.NaN }, { halfLifeDays: Number.NaN }]) {
      let caught: unknown;
      try {
        decayFor(0.5, 100, invalid);
      } catch (error) {
        caught = error;
      }
      expect(isReverieError(caught, 'INVALID_OPTIONS')).toBe(true);
    }
  });
});

describe('decayImportance (properties)', () => {
  it('decaying in steps equals decaying once over the whole span', () => {
    fc.assert(
      fc.property(importance, options, instant, fc.array(instant, { minLength: 2, maxLength: 8 }), (start, opts, lastSeen, rawPoints) => {
        // Split points on or after lastSeenAt, in order: [p0, p1], [p1, p2], ...
        const points = rawPoints.map((point) => Math.max(point, lastSeen)).sort((a, b) => a - b);
        const first = points[0]!;
        const last = points[points.length - 1]!;
        let stepped = start;
        for (let i = 1; i < points.length; i++) {
          stepped = decayImportance(stepped, { lastSeenAt: iso(lastSeen), from: iso(points[i - 1]!), to: iso(points[i]!) }, opts);
        }
        const once = decayImportance(start, { lastSeenAt: iso(lastSeen), from: iso(first), to: iso(last) }, opts);
        expect(Math.abs(stepped - once)).toBeLessThanOrEqual(1e-9);
      }),
    );
  });

  it('never raises importance, and never goes under the floor unless it started there', () => {
    fc.assert(
      fc.property(importance, options, isoTimestamp, isoTimestamp, isoTimestamp, (value, opts, lastSeenAt, from, to) => {
        const decayed = decayImportance(value, { lastSeenAt, from, to }, opts);
        expect(decayed).toBeLessThanOrEqual(value);
        expect(decayed).toBeGreaterThanOrEqual(0);
        if (value >= opts.floor) expect(decayed).toBeGreaterThanOrEqual(opts.floor);
        else expect(decayed).toBe(value);
      }),
    );
  });

  it('is disabled when halfLifeDays <= 0', () => {
    fc.assert(
      fc.property(
        importance,
        fc.double({ min: -1000, max: 0, noNaN: true }),
        isoTimestamp,
        isoTimestamp,
        isoTimestamp,
        (value, halfLifeDays, lastSeenAt, from, to) => {
          expect(decayImportance(value, { lastSeenAt, from, to }, { ...DEFAULT_DECAY_OPTIONS, halfLifeDays })).toBe(value);
        },
      ),
    );
  });

  it('does not decay before lastSeenAt + graceDays', () => {
    fc.assert(
      fc.property(importance, options, instant, fc.double({ min: 0, max: 1, noNaN: true }), (value, opts, lastSeen, fraction) => {
        const graceEnd = lastSeen + Math.floor(opts.graceDays * DAY_MS * fraction);
        const window = { lastSeenAt: iso(lastSeen), from: iso(lastSeen), to: iso(graceEnd) };
        expect(decayImportance(value, window, opts)).toBe(value);
      }),
    );
  });

  it('counts only post-grace time', () => {
    fc.assert(
      fc.property(
        importance,
        options,
        instant,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 2000 * DAY_MS }),
        (value, opts, lastSeen, fraction, postGraceMs) => {
          const graceEnd = lastSeen + opts.graceDays * DAY_MS;
          // `from` anywhere inside the grace period: the result only depends on time after graceEnd.
          const from = lastSeen + Math.floor(opts.graceDays * DAY_MS * fraction);
          const to = Math.ceil(graceEnd) + postGraceMs;
          const decayed = decayImportance(value, { lastSeenAt: iso(lastSeen), from: iso(from), to: iso(to) }, opts);
          const days = (to - graceEnd) / DAY_MS;
          const expected = value < opts.floor ? value : Math.max(opts.floor, value * 0.5 ** (days / opts.halfLifeDays));
          expect(Math.abs(decayed - expected)).toBeLessThanOrEqual(1e-12);
        },
      ),
    );
  });
});
