import { describe, expect, it } from 'vitest';
import { parseMemoryQuery } from '../memory/memory-query';
import { heldAt, holdsNow, validityProblem } from './validity';
import { datedEntry } from './__fixtures__/dated-entry';

const ms = (iso: string) => Date.parse(iso);
const entry = datedEntry;

describe('validity (SPEC B9)', () => {
  it('holds now from validFrom (inclusive) to validTo (exclusive), and always without bounds', () => {
    const bounded = { validFrom: '2026-02-01T00:00:00.000Z', validTo: '2026-03-01T00:00:00.000Z' };
    expect(holdsNow(bounded, ms('2026-01-31T23:59:59.999Z'))).toBe(false);
    expect(holdsNow(bounded, ms('2026-02-01T00:00:00.000Z'))).toBe(true);
    expect(holdsNow(bounded, ms('2026-03-01T00:00:00.000Z'))).toBe(false);
    expect(holdsNow({}, 0)).toBe(true);
  });

  it('held at an instant from validFrom, else from createdAt, compared as instants across offsets', () => {
    const noted = { createdAt: '2026-01-10T00:00:00.000Z' };
    expect(heldAt(noted, ms('2026-01-09T00:00:00.000Z'))).toBe(false);
    expect(heldAt(noted, ms('2026-01-10T00:00:00.000Z'))).toBe(true);
    // A fact that began before it was noted (subject time) held before createdAt.
    expect(heldAt({ ...noted, validFrom: '2025-06-01T02:00:00+02:00' }, ms('2025-06-01T00:00:00.000Z'))).toBe(true);
    expect(heldAt({ ...noted, validTo: '2026-01-20T00:00:00.000Z' }, ms('2026-01-20T00:00:00.000Z'))).toBe(false);
  });

  it('names what is wrong with a validity, or nothing', () => {
    expect(validityProblem({ id: 'a', validFrom: '2026-02-01T00:00:00Z', validTo: '2026-01-01T00:00:00Z' })?.field).toBe('validTo');
    expect(validityProblem({ id: 'a', supersededBy: 'b' })?.message).toMatch(/needs validTo/);
    expect(validityProblem({ id: 'a', validTo: '2026-01-01T00:00:00Z', supersededBy: 'a' })?.message).toMatch(/itself/);
    expect(
      validityProblem({ id: 'a', validFrom: '2026-01-01T00:00:00Z', validTo: '2026-01-01T00:00:00Z', supersededBy: 'b' }),
    ).toBeUndefined();
  });
});

describe('parseMemoryQuery: the validity filter', () => {
  const now = new Date('2026-03-01T00:00:00.000Z');
  const entries = new Map([
    ['a', entry('a')],
    ['b', entry('b', { validTo: '2026-02-01T00:00:00.000Z', supersededBy: 'c' })],
    ['c', entry('c', { validFrom: '2026-02-01T00:00:00.000Z' })],
  ]);

  it('asks no filter of an index for current recall over entries without bounds', () => {
    const read: string[] = [];
    const entryOf = (id: string) => (read.push(id), entries.get(id));
    expect(parseMemoryQuery({ text: 'x' }, now).filterOf(entryOf, new Set())).toBeUndefined();
    const filter = parseMemoryQuery({ text: 'x' }, now).filterOf(entryOf, new Set(['b', 'c']))!;
    expect(['a', 'b', 'c'].filter(filter)).toEqual(['a', 'c']);
    expect(read).toEqual(['b', 'c']);
  });

  it('reads every candidate for an as-of search or other filters, and without a bound-set', () => {
    const asOf = parseMemoryQuery({ text: 'x', asOf: '2026-01-20T00:00:00.000Z' }, now).filterOf((id) => entries.get(id), new Set())!;
    expect(['a', 'b', 'c'].filter(asOf)).toEqual(['a', 'b']);
    const tagged = parseMemoryQuery({ text: 'x', tags: ['t'] }, now).filterOf((id) => entries.get(id), new Set())!;
    expect(['a', 'b', 'c'].filter(tagged)).toEqual([]);
    const unknown = parseMemoryQuery({ text: 'x' }, now).filterOf((id) => entries.get(id))!;
    expect(['a', 'b', 'c', 'gone'].filter(unknown)).toEqual(['a', 'c']);
  });
});
