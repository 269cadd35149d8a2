import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  SUBJECT_END_KEY,
  SUBJECT_POINT_KEY,
  SUBJECT_START_KEY,
  SUBJECT_TIME_KEYS,
  describeSubjectTime,
  mergeSubjectTimeMetadata,
  parsePartialDate,
} from './subject-time';

const utc = (iso: string) => Date.parse(iso);

describe('SUBJECT_TIME_KEYS', () => {
  it('lists the three subject-time keys', () => {
    expect(SUBJECT_TIME_KEYS).toEqual(['subject.start', 'subject.end', 'subject.point']);
    expect([SUBJECT_START_KEY, SUBJECT_END_KEY, SUBJECT_POINT_KEY]).toEqual([...SUBJECT_TIME_KEYS]);
  });
});

describe('parsePartialDate', () => {
  it('reads a year as the whole UTC year', () => {
    expect(parsePartialDate('2026')).toEqual({
      start: utc('2026-01-01T00:00:00.000Z'),
      end: utc('2026-12-31T23:59:59.999Z'),
      precision: 1,
    });
  });

  it('reads a month as June 1 to June 30', () => {
    expect(parsePartialDate('2026-06')).toEqual({
      start: utc('2026-06-01T00:00:00.000Z'),
      end: utc('2026-06-30T23:59:59.999Z'),
      precision: 2,
    });
  });

  it('knows how long February is', () => {
    expect(parsePartialDate('2028-02')?.end).toBe(utc('2028-02-29T23:59:59.999Z'));
    expect(parsePartialDate('2026-02')?.end).toBe(utc('2026-02-28T23:59:59.999Z'));
    expect(parsePartialDate('2026-12')?.end).toBe(utc('2026-12-31T23:59:59.999Z'));
  });

  it('reads a day as that whole UTC day', () => {
    expect(parsePartialDate('2026-06-14')).toEqual({
      start: utc('2026-06-14T00:00:00.000Z'),
      end: utc('2026-06-14T23:59:59.999Z'),
      precision: 3,
    });
    expect(parsePartialDate('2028-02-29')?.precision).toBe(3);
  });

  it('reads a full datetime as one instant, honouring offsets', () => {
    expect(parsePartialDate('2026-06-14T09:30:00Z')).toEqual({
      start: utc('2026-06-14T09:30:00.000Z'),
      end: utc('2026-06-14T09:30:00.000Z'),
      precision: 4,
    });
    expect(parsePartialDate('2026-06-14T09:30:00+02:00')?.start).toBe(utc('2026-06-14T07:30:00.000Z'));
    expect(parsePartialDate('2026-06-14T09:30:00.250-05:00')?.start).toBe(utc('2026-06-14T14:30:00.250Z'));
  });

  it('does not read two-digit years as the 1900s', () => {
    expect(parsePartialDate('0050')?.start).toBe(utc('0050-01-01T00:00:00.000Z'));
    expect(parsePartialDate('0050-03-01')?.start).toBe(utc('0050-03-01T00:00:00.000Z'));
  });

  it.each([
    'hello',
    '',
    '2026-13',
    '2026-00',
    '2026-02-30',
    '2026-02-29',
    '2026-04-31',
    '2026-06-00',
    '26',
    '2026-6',
    '2026-06-1',
    ' 2026',
    '2026-06-14T09:30:00',
    '2026-06-14T25:00:00Z',
    '2026-02-30T10:00:00Z',
    '2026-06-14 09:30:00Z',
    '12026',
  ])('rejects %j', (value) => {
    expect(parsePartialDate(value)).toBeUndefined();
  });

  it('covers every generated day exactly (property)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true }), (date) => {
        const day = date.toISOString().slice(0, 10);
        const span = parsePartialDate(day);
        expect(span).toBeDefined();
        const midnight = Date.parse(`${day}T00:00:00.000Z`);
        expect(span?.start).toBe(midnight);
        expect(span?.end).toBe(midnight + 86_400_000 - 1);
        // A day lies inside its month, which lies inside its year.
        const month = parsePartialDate(day.slice(0, 7));
        const year = parsePartialDate(day.slice(0, 4));
        expect(month && year && span).toBeTruthy();
        if (!month || !year || !span) return;
        expect(year.start <= month.start && month.start <= span.start).toBe(true);
        expect(span.end <= month.end && month.end <= year.end).toBe(true);
      }),
    );
  });
});

const isoDate = fc
  .date({ min: new Date('2000-01-01T00:00:00.000Z'), max: new Date('2040-12-31T23:59:59.999Z'), noInvalidDate: true })
  .map((date) => date.toISOString());

/** Any well-formed subject-time value, at every precision, plus equal instants written with an offset. */
const subjectValue = fc.oneof(
  isoDate.map((iso) => iso.slice(0, 4)),
  isoDate.map((iso) => iso.slice(0, 7)),
  isoDate.map((iso) => iso.slice(0, 10)),
  isoDate,
  isoDate.map((iso) => iso.replace(/\.\d{3}Z$/, 'Z')),
  isoDate.map((iso) => `${iso.slice(0, 10)}T00:00:00+00:00`),
  fc.constantFrom('2026', '2026-01', '2026-01-01', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z', '2026-12-31'),
);

/** Metadata that may hold subject-time values (some malformed) and unrelated keys. */
const metadataArb = fc.record(
  {
    [SUBJECT_START_KEY]: fc.oneof(subjectValue, fc.constantFrom('2026-13', 'soon')),
    [SUBJECT_END_KEY]: fc.oneof(subjectValue, fc.constantFrom('2026-02-30', '')),
    [SUBJECT_POINT_KEY]: fc.oneof(subjectValue, fc.constant('hello')),
    source: fc.string(),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<Record<string, string>>;

describe('mergeSubjectTimeMetadata', () => {
  it('keeps only subject-time keys', () => {
    expect(mergeSubjectTimeMetadata([{ source: 'chat', 'subject.point': '2026-06-14' }, { mood: 'happy' }])).toEqual({
      'subject.point': '2026-06-14',
    });
    expect(mergeSubjectTimeMetadata([{ source: 'chat' }])).toEqual({});
    expect(mergeSubjectTimeMetadata([])).toEqual({});
  });

  it('widens the range: earliest start, latest end, original strings kept', () => {
    expect(
      mergeSubjectTimeMetadata([
        { 'subject.start': '2026-06-10', 'subject.end': '2026-06-14' },
        { 'subject.start': '2026-06', 'subject.end': '2026-06-12T18:00:00+02:00' },
      ]),
    ).toEqual({ 'subject.start': '2026-06', 'subject.end': '2026-06-14' });
    // 2026-07-01T00:00:00+02:00 is 2026-06-30T22:00Z, inside the day 2026-06-30 ...
    expect(mergeSubjectTimeMetadata([{ 'subject.end': '2026-06-30' }, { 'subject.end': '2026-07-01T00:00:00+02:00' }])).toEqual({
      'subject.end': '2026-06-30',
    });
    // ... while 2026-06-30T23:00:00-02:00 is 2026-07-01T01:00Z, after it.
    expect(mergeSubjectTimeMetadata([{ 'subject.end': '2026-06-30' }, { 'subject.end': '2026-06-30T23:00:00-02:00' }])).toEqual({
      'subject.end': '2026-06-30T23:00:00-02:00',
    });
  });

  it('compares instants, not strings, across offsets', () => {
    // 23:00-05:00 is 04:00Z the next day, later than 2026-06-15T01:00:00Z.
    expect(mergeSubjectTimeMetadata([{ 'subject.end': '2026-06-14T23:00:00-05:00' }, { 'subject.end': '2026-06-15T01:00:00Z' }])).toEqual({
      'subject.end': '2026-06-14T23:00:00-05:00',
    });
  });

  it('takes the most specific point, then the earliest, then the smallest string', () => {
    expect(
      mergeSubjectTimeMetadata([{ 'subject.point': '2026-06' }, { 'subject.point': '2026-06-20' }, { 'subject.point': '2026-06-14' }]),
    ).toEqual({ 'subject.point': '2026-06-14' });
    expect(
      mergeSubjectTimeMetadata([{ 'subject.point': '2026-06-14T09:30:00+02:00' }, { 'subject.point': '2026-06-14T07:30:00Z' }]),
    ).toEqual({ 'subject.point': '2026-06-14T07:30:00Z' });
  });

  it('ignores malformed values without throwing', () => {
    expect(
      mergeSubjectTimeMetadata([
        { 'subject.start': 'hello', 'subject.end': '2026-13', 'subject.point': '2026-02-29' },
        { 'subject.start': '2026-03-01' },
      ]),
    ).toEqual({ 'subject.start': '2026-03-01' });
  });

  it('is commutative: the order of sources does not matter (property)', () => {
    const sourcesAndShuffle = fc
      .array(metadataArb, { maxLength: 6 })
      .chain((sources) =>
        fc.tuple(fc.constant(sources), fc.shuffledSubarray(sources, { minLength: sources.length, maxLength: sources.length })),
      );
    fc.assert(
      fc.property(sourcesAndShuffle, ([sources, shuffled]) => {
        expect(mergeSubjectTimeMetadata(shuffled)).toEqual(mergeSubjectTimeMetadata(sources));
        expect(mergeSubjectTimeMetadata([...sources].reverse())).toEqual(mergeSubjectTimeMetadata(sources));
      }),
    );
  });

  it('is associative (property)', () => {
    fc.assert(
      fc.property(metadataArb, metadataArb, metadataArb, (a, b, c) => {
        const all = mergeSubjectTimeMetadata([a, b, c]);
        expect(mergeSubjectTimeMetadata([a, mergeSubjectTimeMetadata([b, c])])).toEqual(all);
        expect(mergeSubjectTimeMetadata([mergeSubjectTimeMetadata([a, b]), c])).toEqual(all);
      }),
    );
  });

  it('breaks ties deterministically: the coarser value for start and end', () => {
    const tiedStarts = ['2026-01-01T00:00:00Z', '2026-01', '2026-01-01', '2026'];
    for (const order of [tiedStarts, [...tiedStarts].reverse()]) {
      expect(mergeSubjectTimeMetadata(order.map((value) => ({ 'subject.start': value })))).toEqual({
        'subject.start': '2026',
      });
    }
    const tiedEnds = ['2026-12-31', '2026', '2026-12'];
    for (const order of [tiedEnds, [...tiedEnds].reverse()]) {
      expect(mergeSubjectTimeMetadata(order.map((value) => ({ 'subject.end': value })))).toEqual({ 'subject.end': '2026' });
    }
  });

  it('is commutative and associative when values tie (property)', () => {
    // Every value here starts at 2026-01-01T00:00Z, and several end at the end of 2026.
    const tied = fc.constantFrom(
      '2026',
      '2026-01',
      '2026-01-01',
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T02:00:00+02:00',
      '2025-12-31T19:00:00-05:00',
      '2026-12',
      '2026-12-31',
    );
    const tiedMetadata = fc.record(
      { [SUBJECT_START_KEY]: tied, [SUBJECT_END_KEY]: tied, [SUBJECT_POINT_KEY]: tied },
      { requiredKeys: [] },
    ) as fc.Arbitrary<Record<string, string>>;
    fc.assert(
      fc.property(tiedMetadata, tiedMetadata, tiedMetadata, (a, b, c) => {
        const all = mergeSubjectTimeMetadata([a, b, c]);
        for (const order of [
          [a, c, b],
          [b, a, c],
          [b, c, a],
          [c, a, b],
          [c, b, a],
        ]) {
          expect(mergeSubjectTimeMetadata(order)).toEqual(all);
        }
        expect(mergeSubjectTimeMetadata([a, mergeSubjectTimeMetadata([b, c])])).toEqual(all);
        expect(mergeSubjectTimeMetadata([mergeSubjectTimeMetadata([a, b]), c])).toEqual(all);
      }),
    );
  });

  it('returns only well-formed values that some source carried, widening the range (property)', () => {
    fc.assert(
      fc.property(fc.array(metadataArb, { minLength: 1, maxLength: 6 }), (sources) => {
        const merged = mergeSubjectTimeMetadata(sources);
        for (const [key, value] of Object.entries(merged)) {
          expect(SUBJECT_TIME_KEYS as readonly string[]).toContain(key);
          expect(parsePartialDate(value)).toBeDefined();
          expect(sources.some((source) => source[key] === value)).toBe(true);
        }
        for (const key of SUBJECT_TIME_KEYS) {
          const valid = sources.map((source) => source[key]).filter((v) => v !== undefined && parsePartialDate(v));
          expect(merged[key] !== undefined).toBe(valid.length > 0);
        }
        const start = merged[SUBJECT_START_KEY];
        const end = merged[SUBJECT_END_KEY];
        for (const source of sources) {
          const sourceStart = source[SUBJECT_START_KEY] && parsePartialDate(source[SUBJECT_START_KEY]);
          if (sourceStart && start) expect(parsePartialDate(start)!.start).toBeLessThanOrEqual(sourceStart.start);
          const sourceEnd = source[SUBJECT_END_KEY] && parsePartialDate(source[SUBJECT_END_KEY]);
          if (sourceEnd && end) expect(parsePartialDate(end)!.end).toBeGreaterThanOrEqual(sourceEnd.end);
        }
      }),
    );
  });
});

describe('describeSubjectTime', () => {
  it('renders a range, an open range, a point, and both', () => {
    expect(describeSubjectTime({ 'subject.start': '2026-06-01', 'subject.end': '2026-06-14' })).toBe('2026-06-01..2026-06-14');
    expect(describeSubjectTime({ 'subject.start': '2026-06-01' })).toBe('2026-06-01..');
    expect(describeSubjectTime({ 'subject.end': '2026-06-14' })).toBe('..2026-06-14');
    expect(describeSubjectTime({ 'subject.point': '2026-06-14' })).toBe('2026-06-14');
    expect(describeSubjectTime({ 'subject.start': '2026-06', 'subject.end': '2026-06' })).toBe('2026-06');
    expect(describeSubjectTime({ 'subject.start': '2026-06-01', 'subject.end': '2026-06-30', 'subject.point': '2026-06-14' })).toBe(
      '2026-06-14 within 2026-06-01..2026-06-30',
    );
  });

  it('is undefined without usable subject time', () => {
    expect(describeSubjectTime({})).toBeUndefined();
    expect(describeSubjectTime({ source: 'chat' })).toBeUndefined();
    expect(describeSubjectTime({ 'subject.point': 'tomorrow', 'subject.start': '2026-02-30' })).toBeUndefined();
  });
});
