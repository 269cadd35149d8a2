import { describe, expect, it } from 'vitest';
import { conflictingSubjectTimes } from './subject-time-conflict';

describe('conflictingSubjectTimes', () => {
  it('finds two moments that cannot be the same', () => {
    expect(
      conflictingSubjectTimes([{ metadata: { 'subject.point': '2026-10-31' } }, { metadata: { 'subject.point': '2026-08-13' } }]),
    ).toEqual(['2026-10-31', '2026-08-13']);
    expect(
      conflictingSubjectTimes([
        { metadata: { 'subject.start': '2026-06-01', 'subject.end': '2026-06-14' } },
        { metadata: { 'subject.point': '2026-07' } },
      ]),
    ).toEqual(['2026-06-01..2026-06-14', '2026-07']);
  });

  it('accepts overlapping or partial times, and entries without subject time', () => {
    expect(
      conflictingSubjectTimes([{ metadata: { 'subject.point': '2026-06' } }, { metadata: { 'subject.point': '2026-06-14' } }]),
    ).toBeUndefined();
    expect(conflictingSubjectTimes([{ metadata: { 'subject.point': '2026-06-14' } }, { metadata: {} }])).toBeUndefined();
    expect(
      conflictingSubjectTimes([{ metadata: { 'subject.start': '2026-06-01' } }, { metadata: { 'subject.point': '2027-01-01' } }]),
    ).toBeUndefined();
  });
});
