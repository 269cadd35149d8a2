import { describe, expect, it } from 'vitest';
import { asJsonRoundTrip } from './json-plain';

describe('asJsonRoundTrip', () => {
  it('hands plain JSON back as it is, without copying it', () => {
    const data = {
      seen: { fingerprints: { '000000000001': 'AAAAAAAAAAAA' }, live: ['000000000001'] },
      at: 3,
      ok: true,
      none: null,
      bare: Object.create(null) as object,
    };
    expect(asJsonRoundTrip(data)).toBe(data);
  });

  it('gives what JSON gives back for anything else: dates as strings, undefined dropped or null, -0 and non-finite numbers', () => {
    const cases: unknown[] = [
      { at: new Date('2026-11-01T00:00:00Z') },
      { a: 1, b: undefined },
      [1, undefined, 2],
      // biome-ignore lint/suspicious/noSparseArray: a hole is what this case tests
      [1, , 2],
      { n: -0, m: Number.NaN, i: Number.POSITIVE_INFINITY },
      { nested: [{ set: new Set([1]) }] },
      { toJSON: () => 'x' },
      { [Symbol('s')]: 1, a: 1 },
      {
        get a() {
          return 1;
        },
      },
    ];
    for (const value of cases) {
      const back = asJsonRoundTrip(value);
      expect(back).not.toBe(value);
      expect(back).toStrictEqual(JSON.parse(JSON.stringify(value)));
    }
  });

  it('refuses a cycle as JSON does', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = { back: cyclic };
    expect(() => asJsonRoundTrip(cyclic)).toThrow(TypeError);
  });

  it('counts an object met twice without a cycle as plain', () => {
    const shared = { a: 1 };
    const data = { x: shared, y: [shared, shared] };
    expect(asJsonRoundTrip(data)).toBe(data);
  });
});
