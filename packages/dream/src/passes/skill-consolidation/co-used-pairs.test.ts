import type { SkillUsage } from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { topCoUsedPairs } from './co-used-pairs';

const use = (skill: string, sessionId: string, timestamp = '2026-05-30T10:00:00.000Z'): SkillUsage => ({ skill, sessionId, timestamp });

describe('co-used pairs (SPEC D9)', () => {
  it('counts sessions per pair once, most sessions first, then by name, at most the limit', () => {
    const usages = [
      use('mcp/email', 's1'),
      use('mcp/calendar', 's1'),
      use('mcp/email', 's1'),
      use('mcp/email', 's2'),
      use('mcp/calendar', 's2'),
      use('research/web', 's2'),
      use('research/web', 's3'),
      use('writing/tone', 's3'),
      use('solo', 's4'),
    ];
    expect(topCoUsedPairs(usages, 10)).toEqual([
      { a: 'mcp/calendar', b: 'mcp/email', sessions: 2 },
      { a: 'mcp/calendar', b: 'research/web', sessions: 1 },
      { a: 'mcp/email', b: 'research/web', sessions: 1 },
      { a: 'research/web', b: 'writing/tone', sessions: 1 },
    ]);
    expect(topCoUsedPairs(usages, 2)).toHaveLength(2);
    expect(topCoUsedPairs(usages, 0)).toEqual([]);
  });
});
