import { describe, expect, it } from 'vitest';
import { memoryEntrySchema, type MemoryEntry } from '../schemas/memory-entry';
import { changeInstant, supersede } from './supersession';
import { datedEntry } from './__fixtures__/dated-entry';

const AT_EIGHT = '2026-01-10T08:00:00.000Z';
const entry = (id: string, fields: Partial<MemoryEntry> = {}) =>
  datedEntry(id, { createdAt: AT_EIGHT, updatedAt: AT_EIGHT, lastSeenAt: AT_EIGHT, ...fields });

describe('changeInstant (SPEC B9): when a newer fact took over', () => {
  const older = entry('aaaaaaaaaaaa', { createdAt: '2025-01-01T00:00:00.000Z' });

  it('is the newer fact’s first observation by default', () => {
    expect(changeInstant(older, entry('bbbbbbbbbbbb'))).toEqual({ at: '2026-01-10T08:00:00.000Z', rule: 'first-noted' });
  });

  it('follows the newer fact’s subject time: a start, else a moment, at the beginning of its span', () => {
    expect(changeInstant(older, entry('b', { metadata: { 'subject.start': '2025-09', 'subject.point': '2025-10-02' } }))).toEqual({
      at: '2025-09-01T00:00:00.000Z',
      rule: 'subject-start',
    });
    expect(changeInstant(older, entry('b', { metadata: { 'subject.point': '2025-10-02' } }))).toEqual({
      at: '2025-10-02T00:00:00.000Z',
      rule: 'subject-point',
    });
    expect(changeInstant(older, entry('b', { metadata: { 'subject.start': '2025-02-30' } }))).toEqual({
      at: '2026-01-10T08:00:00.000Z',
      rule: 'first-noted',
    });
  });

  it('keeps a validFrom the newer entry already has, and never dates the change before the older fact began', () => {
    expect(changeInstant(older, entry('b', { validFrom: '2025-07-01T00:00:00.000Z', metadata: { 'subject.start': '2025-09' } }))).toEqual({
      at: '2025-07-01T00:00:00.000Z',
      rule: 'valid-from',
    });
    const since = { validFrom: '2025-11-01T00:00:00.000Z' };
    expect(changeInstant(since, entry('b', { metadata: { 'subject.start': '2025-09' } }))).toEqual({
      at: '2025-11-01T00:00:00.000Z',
      rule: 'subject-start',
    });
  });
});

describe('supersede', () => {
  it('ends the older entry where the newer begins, names the successor and changes nothing else', () => {
    const older = entry('aaaaaaaaaaaa', { createdAt: '2025-01-01T00:00:00.000Z', lastSeenAt: '2025-05-01T00:00:00.000Z', importance: 0.9 });
    const newer = entry('bbbbbbbbbbbb');
    const result = supersede(older, newer);
    expect(result.older).toEqual({ ...older, validTo: '2026-01-10T08:00:00.000Z', supersededBy: 'bbbbbbbbbbbb' });
    expect(result.newer).toEqual({ ...newer, validFrom: '2026-01-10T08:00:00.000Z' });
    expect(memoryEntrySchema.parse(result.older)).toEqual(result.older);
    expect(memoryEntrySchema.parse(result.newer)).toEqual(result.newer);
  });
});
