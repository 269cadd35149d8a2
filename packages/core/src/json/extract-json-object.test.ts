import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ExtractionStats, extractJsonObject } from './extract-json-object';

/** Prose that cannot contain an object of its own: no braces, no reasoning tags. */
const prose = fc.string({ maxLength: 80 }).filter((text) => !/[{}]/.test(text) && !text.includes('think>'));
const jsonObject = fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });
/** Round-tripped through JSON, so the expectation is what JSON can carry (-0 becomes 0). */
const viaJson = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('extractJsonObject', () => {
  it('finds any JSON object embedded in prose without braces', () => {
    fc.assert(
      fc.property(prose, jsonObject, prose, fc.constantFrom(undefined, 2), (before, value, after, indent) => {
        expect(extractJsonObject(`${before}${JSON.stringify(value, null, indent)}${after}`)).toEqual(viaJson(value));
      }),
    );
  });

  it('is not thrown off by braces, quotes and backslashes inside strings', () => {
    const tricky = fc.string({ unit: fc.constantFrom('{', '}', '"', '\\', '[', ']', 'a', ' ', ':'), maxLength: 20 });
    fc.assert(
      fc.property(prose, fc.dictionary(tricky, tricky, { maxKeys: 4 }), (before, value) => {
        expect(extractJsonObject(`${before}${JSON.stringify({ value })} and then }}} more`)).toEqual({ value });
      }),
    );
  });

  it('returns the outermost object with its nested objects', () => {
    const reply = 'Here you go:\n{"entries": [{"content": "likes tea", "meta": {"a": {"b": 1}}}], "n": 2}\nDone.';
    expect(extractJsonObject(reply)).toEqual({ entries: [{ content: 'likes tea', meta: { a: { b: 1 } } }], n: 2 });
  });

  it('reads an object inside a code fence surrounded by prose', () => {
    const reply = 'Sure! The entries are below.\n```json\n{"entries": [{"content": "x"}]}\n```\nLet me know.';
    expect(extractJsonObject(reply)).toEqual({ entries: [{ content: 'x' }] });
  });

  it('skips <think> blocks, even ones holding braces or a draft object', () => {
    expect(extractJsonObject('<think>{not json} maybe {"draft": true}</think>\n{"final": true}')).toEqual({ final: true });
  });

  it('drops reasoning that only shows its closing tag', () => {
    expect(extractJsonObject('I could answer {"draft": 1}...</think>{"final": 2}')).toEqual({ final: 2 });
  });

  it('passes over brace spans that are not JSON and keeps looking', () => {
    expect(extractJsonObject('Use {placeholders} like {this}, then: {"ok": true}')).toEqual({ ok: true });
    expect(extractJsonObject('an unclosed { brace, then {"ok": 1}')).toEqual({ ok: 1 });
  });

  it.each([
    ['plain prose', 'I could not find anything worth saving.'],
    ['an empty reply', ''],
    ['a top-level array of scalars', '["x", 1]'],
    ['an unterminated object', '{"entries": ["x"]'],
    ['an invalid object, without returning the object inside it', '{"entries": [{"content": "x"}],}'],
    ['an object only inside an unterminated think block', '<think>{"entries": []}'],
    ['a brace span that is not JSON', '{not json}'],
  ])('returns undefined for %s', (_name, reply) => {
    expect(extractJsonObject(reply)).toBeUndefined();
  });
});

describe('extractJsonObject is linear in the reply (SPEC B11)', () => {
  const costOf = (reply: string) => {
    const stats: ExtractionStats = { scanned: 0, parsed: 0 };
    extractJsonObject(reply, stats);
    return stats;
  };

  it.each([
    ['150,000 opening braces', '{'.repeat(150_000)],
    ['150,000 opening braces, then an object', `${'{'.repeat(150_000)}{"ok": true}`],
    ['nested braces that never close', `${'{"a": '.repeat(30_000)}1`],
    ['many closed spans that are not JSON', '{x} '.repeat(40_000)],
    ['unclosed braces around closed spans', `{ ${'{x} { '.repeat(20_000)}`],
    ['quotes and braces', '{"\\"{'.repeat(30_000)],
  ])('visits each character once and parses each at most once: %s', (_name, reply) => {
    const { scanned, parsed } = costOf(reply);
    expect(scanned).toBeLessThanOrEqual(reply.length);
    expect(parsed).toBeLessThanOrEqual(reply.length);
  });

  it('stays linear on any mix of braces, quotes, backslashes and think tags', () => {
    const piece = fc.constantFrom('{', '}', '"', '\\', ' ', 'a', ':', ',', '1', '<think>', '</think>', '{"k": 1}', '[');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), (pieces) => {
        const reply = pieces.join('');
        const { scanned, parsed } = costOf(reply);
        expect(scanned).toBeLessThanOrEqual(reply.length);
        expect(parsed).toBeLessThanOrEqual(reply.length);
      }),
    );
  });

  it('still finds the object after a pathological prefix', () => {
    expect(extractJsonObject(`${'{'.repeat(10_000)} prose {"ok": true}`)).toEqual({ ok: true });
  });
});
