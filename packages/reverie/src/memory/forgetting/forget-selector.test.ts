import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '@reverie/core';
import { foldText, parseForgetOptions, parseForgetSelector, selectorFrom, selects, termsOf } from './forget-selector';

const entry = (content: string, extra: Partial<MemoryEntry> = {}): MemoryEntry => ({
  id: '0123456789ab',
  content,
  category: 'people',
  tags: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: '2026-01-01T00:00:00.000Z',
  reinforcementCount: 1,
  importance: 0.5,
  metadata: {},
  ...extra,
});

describe('selects', () => {
  it('matches a subject by every word, in any form and letter case, in content, tags or category', () => {
    const subject = { subject: 'Alice divorcing' };
    expect(selects(subject, entry('ALICE got divorced in March'))).toBe(true);
    expect(selects(subject, entry('Alice moved', { tags: ['divorce'] }))).toBe(true);
    expect(selects(subject, entry('Alice moved to Porto'))).toBe(false);
    expect(selects({ subject: 'people' }, entry('Bob'))).toBe(true);
  });

  it('matches text as written, ignoring letter case and spacing', () => {
    expect(selects({ text: 'TEA  over' }, entry('The user prefers tea over coffee'))).toBe(true);
    expect(selects({ text: 'tea over milk' }, entry('The user prefers tea over coffee'))).toBe(false);
  });

  it('never selects an entry under _system/', () => {
    expect(selects({ subject: 'forgotten' }, entry('x', { category: '_system/forgotten' }))).toBe(false);
    expect(selects({ ids: ['0123456789ab'] }, entry('x', { category: '_system/forgotten' }))).toBe(false);
  });
});

describe('the selector and options', () => {
  it('takes exactly one of ids, text, subject', () => {
    expect(parseForgetSelector({ ids: ['0123456789ab'] })).toEqual({ ids: ['0123456789ab'] });
    for (const bad of [
      {},
      { ids: [] },
      { ids: ['nope'] },
      { text: 'a', subject: 'b' },
      { text: 'the is' },
      { subject: 'x', extra: 1 },
      null,
    ]) {
      expect(() => parseForgetSelector(bad), JSON.stringify(bad)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    }
    const refusal = (() => {
      try {
        parseForgetSelector({ text: 'the' });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toMatchObject({ details: { issues: [expect.objectContaining({ message: expect.any(String) })] } });
  });

  it("accepts mode 'soft' or 'erase', and defaults to soft", () => {
    expect(parseForgetOptions(undefined)).toEqual({ mode: 'soft' });
    expect(parseForgetOptions({ mode: 'erase' })).toEqual({ mode: 'erase' });
    expect(() => parseForgetOptions({ mode: 'shred' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => parseForgetOptions({ mode: 'erase', force: true })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });

  it('builds one selector from separate fields, refusing none or several with INVALID_INPUT', () => {
    expect(selectorFrom({ ids: null, text: 'tea', subject: undefined }, 'x')).toEqual({ text: 'tea' });
    expect(() => selectorFrom({}, 'forget_memory')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => selectorFrom({ text: 'a', subject: 'b' }, 'forget_memory')).toThrow(/exactly one of ids, text or subject/);
  });
});

describe('termsOf and foldText', () => {
  it('gives the stems recall matches on, without stop words, once each', () => {
    expect(termsOf('The researcher researched the RESEARCH')).toEqual(termsOf('research researcher'));
    expect(termsOf('the is a')).toEqual([]);
    expect(foldText(' Tea\n\tOVER ')).toBe('tea over');
  });
});
