import { describe, expect, it } from 'vitest';
import { namesDateWithin, notedWithin, periodOfDateKey, queryPeriods } from './query-periods';

const day = (iso: string) => Date.parse(`${iso}T00:00:00.000Z`);

describe('queryPeriods', () => {
  it('reads the days, months and years a question names with their year', () => {
    expect(queryPeriods('What exciting news did Maria share on 16 June, 2023?')).toEqual([
      { from: day('2023-06-16'), to: day('2023-06-17') },
    ]);
    expect(queryPeriods('What did Maria donate to a homeless shelter in December 2023?')).toEqual([
      { from: day('2023-12-01'), to: day('2024-01-01') },
    ]);
    expect(queryPeriods('How many times has Melanie gone to the beach in 2023?')).toEqual([
      { from: day('2023-01-01'), to: day('2024-01-01') },
    ]);
    expect(queryPeriods('notes from 2024-02-28 and 2024-02-29')).toEqual([
      { from: day('2024-02-28'), to: day('2024-02-29') },
      { from: day('2024-02-29'), to: day('2024-03-01') },
    ]);
  });

  it('names no period without a year, for a weekday or a relative time', () => {
    expect(queryPeriods('When did Melanie go camping in June?')).toEqual([]);
    expect(queryPeriods('what did I do last week, or on Monday?')).toEqual([]);
    expect(queryPeriods('the 2023 report and last week')).toEqual([{ from: day('2023-01-01'), to: day('2024-01-01') }]);
    expect(queryPeriods('')).toEqual([]);
  });

  it('names each period once', () => {
    expect(queryPeriods('in 2023, yes 2023')).toHaveLength(1);
  });

  it('takes keys of a given year only', () => {
    expect(periodOfDateKey('--06')).toBeUndefined();
    expect(periodOfDateKey('monday')).toBeUndefined();
    expect(periodOfDateKey('2023-12')).toEqual({ from: day('2023-12-01'), to: day('2024-01-01') });
  });
});

describe('notedWithin', () => {
  const june = [{ from: day('2023-06-01'), to: day('2023-07-01') }];

  it('holds when the entry was first or last noted in the period, not when its notings only span it', () => {
    expect(notedWithin({ createdAt: '2023-06-16T19:20:00.000Z', lastSeenAt: '2023-06-16T19:20:00.000Z' }, june)).toBe(true);
    expect(notedWithin({ createdAt: '2023-05-01T00:00:00.000Z', lastSeenAt: '2023-06-01T00:00:00.000Z' }, june)).toBe(true);
    expect(notedWithin({ createdAt: '2023-06-30T23:59:59.999Z', lastSeenAt: '2023-09-01T00:00:00.000Z' }, june)).toBe(true);
    // A merge of a January and a December source was not noted in June.
    expect(notedWithin({ createdAt: '2023-01-01T00:00:00.000Z', lastSeenAt: '2023-12-01T00:00:00.000Z' }, june)).toBe(false);
    expect(notedWithin({ createdAt: '2023-07-01T00:00:00.000Z', lastSeenAt: '2023-08-01T00:00:00.000Z' }, june)).toBe(false);
    expect(notedWithin({ createdAt: '2023-05-01T00:00:00.000Z', lastSeenAt: '2023-05-31T23:59:59.999Z' }, june)).toBe(false);
    expect(notedWithin({ createdAt: '2023-06-16T00:00:00.000Z', lastSeenAt: '2023-06-16T00:00:00.000Z' }, [])).toBe(false);
  });

  it('compares instants, whatever the offset they are written with', () => {
    expect(notedWithin({ createdAt: '2023-07-01T01:00:00+02:00', lastSeenAt: '2023-07-01T01:00:00+02:00' }, june)).toBe(true);
  });
});

describe('namesDateWithin', () => {
  const twentyFive = [{ from: day('2025-01-01'), to: day('2026-01-01') }];

  it('holds for a text that names a day, month or year within a period', () => {
    expect(namesDateWithin('My plan for 2025 is to run a marathon', twentyFive)).toBe(true);
    expect(namesDateWithin('Moving to Lisbon on 3 March 2025', twentyFive)).toBe(true);
    expect(namesDateWithin('Ran a marathon in 2024', twentyFive)).toBe(false);
    expect(namesDateWithin('Has 2025 stickers', [])).toBe(false);
  });
});

describe('queryPeriods reads a relative time anchored to its day', () => {
  it('"the week before 2023-07-16" covers the days before that day, not the day alone', () => {
    const [period] = queryPeriods('Tim met a fan the week before 2023-07-16');
    expect(period).toBeDefined();
    expect(period!.to).toBe(Date.UTC(2023, 6, 17));
    expect(period!.from).toBeLessThanOrEqual(Date.UTC(2023, 6, 9));
    const [ahead] = queryPeriods('They fly out 3 days after 2024-01-02');
    expect(ahead!.from).toBe(Date.UTC(2024, 0, 2));
    expect(ahead!.to).toBeGreaterThan(Date.UTC(2024, 0, 5));
  });
});
