import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runOfPath } from './erase-in-files';
import { erasureNeedles, holdsNeedle, scrubJson } from './erasure-needles';

describe('erasureNeedles', () => {
  it('folds each content and adds the start a lineage excerpt keeps of a long one', () => {
    const long = 'The user keeps a detailed journal of every climbing trip with grades, partners and weather';
    expect(erasureNeedles(['Alice  keeps a QUOKKA', '  ', long])).toEqual([
      'alice keeps a quokka',
      long.toLowerCase(),
      'the user keeps a detailed journal of every climbing trip with grades, partners',
    ]);
  });
});

describe('holdsNeedle', () => {
  it('matches in any letter case and spacing, and nothing without needles', () => {
    expect(holdsNeedle('By the way: ALICE keeps\na quokka!', ['alice keeps a quokka'])).toBe(true);
    expect(holdsNeedle('Alice keeps a cat', ['alice keeps a quokka'])).toBe(false);
    expect(holdsNeedle('anything', [])).toBe(false);
  });
});

describe('scrubJson', () => {
  const needles = ['zephyrine'];
  it('drops an object with a field holding the text, an array element holding it, never compares keys', () => {
    expect(scrubJson({ content: 'Named Zephyrine', id: 'a' }, needles)).toEqual({ drop: true });
    expect(scrubJson({ zephyrine: 'a key, not a value' }, needles)).toMatchObject({ drop: false, changed: false });
    expect(
      scrubJson(
        {
          id: 'b',
          lineage: {
            ancestors: [
              { id: 'a', excerpt: 'ZEPHYRINE the quokka' },
              { id: 'c', excerpt: 'tea' },
            ],
          },
        },
        needles,
      ),
    ).toEqual({ drop: false, changed: true, value: { id: 'b', lineage: { ancestors: [{ id: 'c', excerpt: 'tea' }] } } });
    expect(scrubJson(['zephyrine', 'tea', 3, null], needles)).toEqual({ drop: false, changed: true, value: ['tea', 3, null] });
    const untouched = { a: [1, 'x'], b: true };
    expect(scrubJson(untouched, needles)).toEqual({ drop: false, changed: false, value: untouched });
  });

  it('keeps inherited property names as plain data', () => {
    const value = JSON.parse('{"__proto__": {"x": "zephyrine"}, "constructor": "ok"}') as object;
    expect(scrubJson(value, needles)).toEqual({ drop: true });
    expect(scrubJson(JSON.parse('{"__proto__": ["zephyrine", "y"]}'), needles)).toMatchObject({ drop: false, changed: true });
  });
});

describe('runOfPath', () => {
  it('names the dream run of a file in a run folder, and nothing for other files', () => {
    expect(runOfPath(join('_system', 'dreams', 'runs', '2026-06-01-2f8143ae7329', 'archive', 'forget.json'))).toBe('2f8143ae7329');
    expect(runOfPath(join('_system', 'dreams', 'runs', '2026-06-01-2f8143ae7329'))).toBeUndefined();
    expect(runOfPath(join('logs', 'conversation.jsonl'))).toBeUndefined();
  });
});
