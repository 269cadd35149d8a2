import type { Skill, SkillUsage } from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { buildSkillProfiles } from './skill-profile';
import { usageWindow } from './usage-window';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const use = (skill: string, sessionId: string, timestamp = '2026-05-30T10:00:00.000Z'): SkillUsage => ({ skill, sessionId, timestamp });

function skill(name: string, content: string, createdAt = '2026-01-01T00:00:00.000Z'): Skill {
  return { name, summary: `About ${name}`, content, seeAlso: [], createdAt, updatedAt: createdAt, lastUsedAt: null };
}

describe('skill profiles', () => {
  it('joins usage counts, the sparse and protected marks, and whether the content fits a call', () => {
    const skills = [skill('mcp/email', 'tiny'), skill('research/web', 'x'.repeat(300)), skill('billing/refunds', 'y'.repeat(50))];
    const profiles = buildSkillProfiles(
      skills,
      [use('mcp/email', 's1'), use('mcp/email', 's2'), use('mcp/email', 'old', '2026-01-01T00:00:00.000Z')],
      {
        now: NOW,
        window: usageWindow(NOW, 30),
        rules: { sparseChars: 200, sparseMinAgeDays: 7, protectedSkills: ['billing/*'], maxContentChars: 250 },
      },
    );
    expect(profiles.map(({ skill: s, ...rest }) => [s.name, rest])).toEqual([
      ['mcp/email', { uses: 2, sparse: true, protected: false, truncated: false }],
      ['research/web', { uses: 0, sparse: false, protected: false, truncated: true }],
      ['billing/refunds', { uses: 0, sparse: true, protected: true, truncated: false }],
    ]);
  });
});
