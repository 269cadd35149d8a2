import { describe, expect, it } from 'vitest';
import { matchesAnySkillPattern, skillNameMatches, skillNamePatternSchema } from './skill-name-pattern';

describe('skill name patterns', () => {
  it('matches one segment with *, several with **, and literal names exactly', () => {
    expect(skillNameMatches('mcp/email', 'mcp/*')).toBe(true);
    expect(skillNameMatches('mcp/email/send', 'mcp/*')).toBe(false);
    expect(skillNameMatches('mcp/email/send', 'mcp/**')).toBe(true);
    expect(skillNameMatches('mcp', 'mcp/*')).toBe(false);
    expect(skillNameMatches('research/web', 'research/web')).toBe(true);
    expect(skillNameMatches('research/webs', 'research/web')).toBe(false);
    expect(skillNameMatches('tools/email-draft', '*/email-*')).toBe(true);
  });

  it('treats regular-expression characters in a pattern as themselves', () => {
    expect(skillNameMatches('a.b', 'a.b')).toBe(true);
    expect(skillNameMatches('axb', 'a.b')).toBe(false);
    expect(skillNameMatches('c++', 'c++')).toBe(true);
  });

  it('matches any of several patterns, and none of none', () => {
    expect(matchesAnySkillPattern('mcp/calendar', ['billing/*', 'mcp/*'])).toBe(true);
    expect(matchesAnySkillPattern('mcp/calendar', [])).toBe(false);
  });

  it('refuses empty and absolute patterns', () => {
    expect(skillNamePatternSchema.safeParse('').success).toBe(false);
    expect(skillNamePatternSchema.safeParse('/mcp/*').success).toBe(false);
    expect(skillNamePatternSchema.safeParse('mcp/*').success).toBe(true);
  });
});
