import { describe, expect, it } from 'vitest';
import { filterSeeAlso, stripSkillTags } from './skill-draft-hygiene';

describe('stripSkillTags', () => {
  it('removes retention hints from name, summary and content and keeps other fields', () => {
    const cleaned = stripSkillTags({
      name: 'travel/booking [durable]',
      summary: '[permanent] How to book trips',
      content: '# Booking\n1. Ask for dates [skip]\n2. Compare fares [correction].',
      seeAlso: ['x'],
    });
    expect(cleaned).toEqual({
      name: 'travel/booking',
      summary: 'How to book trips',
      content: '# Booking\n1. Ask for dates\n2. Compare fares.',
      seeAlso: ['x'],
    });
    expect(JSON.stringify(cleaned)).not.toMatch(/\[(skip|correction|permanent|durable|ephemeral)\]/i);
  });
});

describe('filterSeeAlso', () => {
  it('keeps known names once, never the skill itself, and reports the unknown ones', () => {
    const known = new Set(['a/one', 'b/two', 'self']);
    expect(filterSeeAlso(['a/one', 'ghost', 'self', 'a/one', 'b/two [durable]'], known, 'self')).toEqual({
      kept: ['a/one', 'b/two'],
      dropped: ['ghost'],
    });
  });
});
