import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storableText, unstorableTextProblem } from './parse-record';

describe('storableText', () => {
  it('returns storable text unchanged, emoji and all', () => {
    const text = 'Allergic to peanuts 🥜 — Zoë, 東京';
    expect(storableText(text)).toBe(text);
  });

  it('replaces a lone surrogate with U+FFFD and drops NUL characters', () => {
    expect(storableText('cut \uD83E off')).toBe('cut \uFFFD off');
    expect(storableText('low \uDD5C half')).toBe('low \uFFFD half');
    expect(storableText('a\u0000b\u0000')).toBe('ab');
    expect(storableText('\uD83E\u0000\uDD5C')).toBe('\uFFFD\uFFFD');
  });

  it('always gives text every store keeps, and keeps what was storable', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const stored = storableText(text);
        expect(unstorableTextProblem(stored)).toBeUndefined();
        if (unstorableTextProblem(text) === undefined) expect(stored).toBe(text);
      }),
    );
  });
});
