import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseDraft, toStorableText, unstorableTextProblem } from './parse-record';

describe('text every backend can store (SPEC M2)', () => {
  it('refuses NUL, a lone surrogate and a leading byte-order mark, and nothing else', () => {
    expect(unstorableTextProblem('nul\u0000here')).toMatch(/NUL character \(U\+0000\) at position 3/);
    expect(unstorableTextProblem('half \ud83d')).toMatch(/lone UTF-16 surrogate \(U\+D83D\) at position 5/);
    expect(unstorableTextProblem('\ud83d\ude00 trailing half \ude00')).toMatch(/U\+DE00/);
    expect(unstorableTextProblem('\ufeffleading')).toMatch(/byte-order mark/);
    for (const fine of ['', 'plain', '😀 emoji pair', 'mid\ufeffword', 'a\u202eb', 'tab\tnew\nline', 'constructor', '__proto__']) {
      expect(unstorableTextProblem(fine)).toBeUndefined();
    }
  });

  it('parseDraft names the field, object keys included, and passes storable records through', () => {
    const schema = z.object({ content: z.string(), tags: z.array(z.string()), metadata: z.record(z.string(), z.string()) });
    expect(parseDraft(schema, { content: 'ok', tags: ['a'], metadata: { constructor: 'x' } }, 'memory entry')).toEqual({
      content: 'ok',
      tags: ['a'],
      metadata: { constructor: 'x' },
    });
    expect(() => parseDraft(schema, { content: 'ok', tags: ['a', 'b\u0000'], metadata: {} }, 'memory entry')).toThrow(
      /Invalid memory entry: tags\.1 holds a NUL/,
    );
    expect(() => parseDraft(schema, { content: 'ok', tags: [], metadata: { 'k\ud800': 'v' } }, 'memory entry')).toThrow(
      /metadata\.k\ud800 \(the key\) holds a lone/,
    );
    try {
      parseDraft(schema, { content: '\ufeffx', tags: [], metadata: {} }, 'memory entry');
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_INPUT', details: { issues: [{ path: ['content'] }] } });
    }
  });

  it('toStorableText changes only what cannot be stored', () => {
    expect(toStorableText('\ufeffhi\u0000 there \ud83d!')).toBe('hi there \ufffd!');
    for (const fine of ['plain', '😀', 'mid\ufeffword']) expect(toStorableText(fine)).toBe(fine);
    expect(unstorableTextProblem(toStorableText('\ufeff\u0000\ufeff\udc00'))).toBeUndefined();
  });
});

describe('toStorableText on any text', () => {
  it('replaces a lone surrogate with U+FFFD and drops NUL characters, never joining two halves', () => {
    expect(toStorableText('cut \uD83E off')).toBe('cut \uFFFD off');
    expect(toStorableText('low \uDD5C half')).toBe('low \uFFFD half');
    expect(toStorableText('a\u0000b\u0000')).toBe('ab');
    expect(toStorableText('\uD83E\u0000\uDD5C')).toBe('\uFFFD\uFFFD');
  });

  it('always gives text every store keeps, and keeps what was storable', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const stored = toStorableText(text);
        expect(unstorableTextProblem(stored)).toBeUndefined();
        if (unstorableTextProblem(text) === undefined) expect(stored).toBe(text);
      }),
    );
  });
});
