import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { isReverieError } from '../errors/reverie-error';
import { timestampSchema } from '../schemas/common';
import { mergeTemporalFields, timestampMs, type TemporalFields } from './merge-temporal';

const MIN_DATE = new Date('2020-01-01T00:00:00.000Z');
const MAX_DATE = new Date('2030-12-31T23:59:59.999Z');

const isoTimestamp = fc.date({ min: MIN_DATE, max: MAX_DATE, noInvalidDate: true }).map((date) => date.toISOString());

/** The same instant written with a whole-hour offset, e.g. `2026-06-14T11:30:00.000+02:00`. */
const offsetTimestamp = fc
  .tuple(fc.date({ min: MIN_DATE, max: MAX_DATE, noInvalidDate: true }), fc.integer({ min: -12, max: 14 }))
  .map(([date, hours]) => {
    const local = new Date(date.getTime() + hours * 3_600_000).toISOString().slice(0, -1);
    const sign = hours < 0 ? '-' : '+';
    return `${local}${sign}${String(Math.abs(hours)).padStart(2, '0')}:00`;
  });

const timestamp = fc.oneof(isoTimestamp, offsetTimestamp);

const subjectValue = fc.oneof(
  isoTimestamp.map((iso) => iso.slice(0, 4)),
  isoTimestamp.map((iso) => iso.slice(0, 7)),
  isoTimestamp.map((iso) => iso.slice(0, 10)),
  timestamp,
);

const metadata = fc.record(
  {
    'subject.start': subjectValue,
    'subject.end': subjectValue,
    'subject.point': subjectValue,
    source: fc.string(),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<Record<string, string>>;

const temporalFields: fc.Arbitrary<TemporalFields> = fc.record({
  createdAt: timestamp,
  lastSeenAt: timestamp,
  reinforcementCount: fc.integer({ min: 1, max: 1000 }),
  importance: fc.double({ min: 0, max: 1, noNaN: true }),
  metadata,
});

const entry = (overrides: Partial<TemporalFields>): TemporalFields => ({
  createdAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: '2026-01-01T00:00:00.000Z',
  reinforcementCount: 1,
  importance: 0.5,
  metadata: {},
  ...overrides,
});

describe('timestampMs', () => {
  it('reads ISO timestamps with a zone as instants', () => {
    expect(timestampMs('2026-06-14T09:30:00.000Z')).toBe(Date.UTC(2026, 5, 14, 9, 30));
    expect(timestampMs('2026-06-14T11:30:00+02:00')).toBe(Date.UTC(2026, 5, 14, 9, 30));
  });

  it.each(['2026-06-14', '2026-06-14T09:30:00', 'June 14 2026', '2026-02-30T00:00:00Z', ''])('rejects %j with INVALID_INPUT', (value) => {
    expect(() => timestampMs(value)).toThrowError(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('accepts exactly the strings timestampSchema accepts', () => {
    const digits = (length: number) =>
      fc.array(fc.constantFrom(...'0123456789'), { minLength: length, maxLength: length }).map((chars) => chars.join(''));
    const candidate = fc
      .tuple(
        fc.constantFrom('2024', '2026', '1900', '2000', '0000'),
        fc.constantFrom('-', ''),
        digits(2),
        fc.constantFrom('-', '/'),
        digits(2),
        fc.constantFrom('T', ' ', 't'),
        digits(2),
        fc.constantFrom(':', ''),
        digits(2),
        fc.constantFrom(':00', ':59', ':60', ''),
        fc.constantFrom('', '.5', '.123', '.123456789', '.'),
        fc.constantFrom('Z', 'z', '', '+02:00', '-11:30', '+24:00', '+0200', '+02'),
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(candidate, isoTimestamp, offsetTimestamp, fc.string()), (value) => {
        let accepted = true;
        try {
          timestampMs(value);
        } catch {
          accepted = false;
        }
        expect(accepted).toBe(timestampSchema.safeParse(value).success && !Number.isNaN(Date.parse(value)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('mergeTemporalFields', () => {
  it('throws INVALID_INPUT for an empty list', () => {
    let caught: unknown;
    try {
      mergeTemporalFields([]);
    } catch (error) {
      caught = error;
    }
    expect(isReverieError(caught, 'INVALID_INPUT')).toBe(true);
    expect((caught as Error).name).toBe('ReverieValidationError');
  });

  it('throws INVALID_INPUT for a malformed timestamp', () => {
    expect(() => mergeTemporalFields([entry({ createdAt: 'yesterday' })])).toThrowError(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('takes min createdAt, max lastSeenAt, summed reinforcement, max importance', () => {
    const merged = mergeTemporalFields([
      entry({
        createdAt: '2026-03-01T00:00:00.000Z',
        lastSeenAt: '2026-05-01T00:00:00.000Z',
        reinforcementCount: 2,
        importance: 0.4,
      }),
      entry({
        createdAt: '2026-02-01T00:00:00.000Z',
        lastSeenAt: '2026-04-01T00:00:00.000Z',
        reinforcementCount: 3,
        importance: 0.9,
      }),
    ]);
    expect(merged).toEqual({
      createdAt: '2026-02-01T00:00:00.000Z',
      lastSeenAt: '2026-05-01T00:00:00.000Z',
      reinforcementCount: 5,
      importance: 0.9,
      metadata: {},
    });
  });

  it('compares instants, not strings, and keeps the winning original string', () => {
    // As strings "2026-06-14T23:00:00-05:00" < "2026-06-15T01:00:00Z", but it is 04:00Z on the 15th.
    const merged = mergeTemporalFields([
      entry({ createdAt: '2026-06-14T23:00:00-05:00', lastSeenAt: '2026-06-14T23:00:00-05:00' }),
      entry({ createdAt: '2026-06-15T01:00:00Z', lastSeenAt: '2026-06-15T01:00:00Z' }),
    ]);
    expect(merged.createdAt).toBe('2026-06-15T01:00:00Z');
    expect(merged.lastSeenAt).toBe('2026-06-14T23:00:00-05:00');
  });

  it('keeps only subject-time metadata, merged', () => {
    const merged = mergeTemporalFields([
      entry({ metadata: { source: 'chat', 'subject.start': '2026-06-10' } }),
      entry({ metadata: { 'subject.start': '2026-06-01', 'subject.point': 'nonsense' } }),
    ]);
    expect(merged.metadata).toEqual({ 'subject.start': '2026-06-01' });
  });

  it('never stamps now: a merge of old entries stays old', () => {
    const merged = mergeTemporalFields([entry({ createdAt: '2001-01-01T00:00:00.000Z', lastSeenAt: '2001-02-01T00:00:00.000Z' })]);
    expect(merged.createdAt).toBe('2001-01-01T00:00:00.000Z');
    expect(merged.lastSeenAt).toBe('2001-02-01T00:00:00.000Z');
  });

  it('picks the extremes of every source (property)', () => {
    fc.assert(
      fc.property(fc.array(temporalFields, { minLength: 1, maxLength: 8 }), (sources) => {
        const merged = mergeTemporalFields(sources);
        const created = sources.map((source) => timestampMs(source.createdAt));
        const seen = sources.map((source) => timestampMs(source.lastSeenAt));
        expect(timestampMs(merged.createdAt)).toBe(Math.min(...created));
        expect(timestampMs(merged.lastSeenAt)).toBe(Math.max(...seen));
        expect(sources.map((source) => source.createdAt)).toContain(merged.createdAt);
        expect(sources.map((source) => source.lastSeenAt)).toContain(merged.lastSeenAt);
        expect(merged.reinforcementCount).toBe(sources.reduce((sum, source) => sum + source.reinforcementCount, 0));
        expect(merged.importance).toBe(Math.max(...sources.map((source) => source.importance)));
        expect(Object.keys(merged.metadata).every((key) => key.startsWith('subject.'))).toBe(true);
      }),
    );
  });

  it('is commutative (property)', () => {
    const sourcesAndShuffle = fc
      .array(temporalFields, { minLength: 1, maxLength: 8 })
      .chain((sources) =>
        fc.tuple(fc.constant(sources), fc.shuffledSubarray(sources, { minLength: sources.length, maxLength: sources.length })),
      );
    fc.assert(
      fc.property(sourcesAndShuffle, ([sources, shuffled]) => {
        expect(mergeTemporalFields(shuffled)).toEqual(mergeTemporalFields(sources));
      }),
    );
  });

  it('is commutative for equal instants written with different offsets (property)', () => {
    fc.assert(
      fc.property(fc.date({ min: MIN_DATE, max: MAX_DATE, noInvalidDate: true }), (date) => {
        const utcForm = date.toISOString();
        const shifted = new Date(date.getTime() + 2 * 3_600_000).toISOString().slice(0, -1) + '+02:00';
        const a = entry({ createdAt: utcForm, lastSeenAt: utcForm });
        const b = entry({ createdAt: shifted, lastSeenAt: shifted });
        expect(mergeTemporalFields([a, b])).toEqual(mergeTemporalFields([b, a]));
      }),
    );
  });

  it('is associative (property)', () => {
    fc.assert(
      fc.property(temporalFields, temporalFields, temporalFields, (a, b, c) => {
        const all = mergeTemporalFields([a, b, c]);
        expect(mergeTemporalFields([a, mergeTemporalFields([b, c])])).toEqual(all);
        expect(mergeTemporalFields([mergeTemporalFields([a, b]), c])).toEqual(all);
      }),
    );
  });
});
