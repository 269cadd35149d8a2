import { describe, expect, it } from 'vitest';
import { duplicateKey, normaliseContent, stripRetentionTags } from './normalise-content';

describe('stripRetentionTags', () => {
  it('removes every retention hint, in any case, and the spaces it leaves', () => {
    expect(stripRetentionTags('[durable] User lives in Porto [SKIP]')).toBe('User lives in Porto');
    expect(stripRetentionTags('Uses tabs [Permanent], not spaces')).toBe('Uses tabs, not spaces');
    expect(stripRetentionTags('line one\n[ephemeral] line two')).toBe('line one\nline two');
  });

  it('leaves other bracketed text and untagged content alone', () => {
    expect(stripRetentionTags('See [RFC 9110]  for  details')).toBe('See [RFC 9110]  for  details');
  });
});

describe('normaliseContent', () => {
  it('makes near-exact duplicates equal: case, whitespace, punctuation, retention hints', () => {
    const forms = [
      'User prefers dark mode.',
      '  user PREFERS dark-mode ',
      '[durable] "User prefers dark mode!"',
      'User prefers\n\tdark mode',
    ];
    expect(new Set(forms.map(normaliseContent))).toEqual(new Set(['user prefers dark mode']));
  });

  it('keeps what changes a fact: decimals, thousands, times, dates, percentages, signs', () => {
    expect(normaliseContent('Costs 3.5 EUR')).not.toBe(normaliseContent('Costs 35 EUR'));
    expect(normaliseContent('Meets at 10:30')).not.toBe(normaliseContent('Meets at 1030'));
    expect(normaliseContent('Growth of 50%')).not.toBe(normaliseContent('Growth of 50'));
    expect(normaliseContent('Freezer at -18 degrees')).not.toBe(normaliseContent('Freezer at 18 degrees'));
    expect(normaliseContent('Uses C++')).not.toBe(normaliseContent('Uses C'));
    expect(normaliseContent('Due 2026-06-14.')).toBe('due 2026-06-14');
  });

  it('is idempotent', () => {
    const once = normaliseContent('Alice\'s "team" — ships v2.1, on 2026/06/14 [skip]');
    expect(normaliseContent(once)).toBe(once);
  });
});

describe('duplicateKey', () => {
  it('tells apart equal wording about different moments (subject time)', () => {
    const june = duplicateKey({ content: 'Trip to Paris', metadata: { 'subject.point': '2025-06' } });
    const march = duplicateKey({ content: 'Trip to Paris.', metadata: { 'subject.point': '2026-03' } });
    const again = duplicateKey({ content: 'trip to paris', metadata: { 'subject.point': '2025-06', source: 'x' } });
    expect(june).not.toBe(march);
    expect(june).toBe(again);
  });

  it('has no key for content that is only punctuation or hints', () => {
    expect(duplicateKey({ content: '[skip] ...', metadata: {} })).toBeUndefined();
  });
});
