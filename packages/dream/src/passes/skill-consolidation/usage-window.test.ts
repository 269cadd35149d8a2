import type { SkillUsage } from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { countSkillUsage, usageWindow, usagesInWindow } from './usage-window';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const use = (skill: string, sessionId: string, timestamp = '2026-05-30T10:00:00.000Z'): SkillUsage => ({ skill, sessionId, timestamp });

describe('usage window and counts (SPEC D9)', () => {
  it('counts uses per skill over the last N days, bounds included, and nothing older or in the future', () => {
    const window = usageWindow(NOW, 30);
    expect(window.since.toISOString()).toBe('2026-05-02T12:00:00.000Z');
    const usages = [
      use('mcp/email', 's1'),
      use('mcp/email', 's2'),
      use('mcp/email', 's0', '2026-05-02T12:00:00.000Z'),
      use('mcp/email', 'old', '2026-05-02T11:59:59.999Z'),
      use('mcp/email', 'future', '2026-06-01T12:00:00.001Z'),
      use('research/web', 's1'),
    ];
    expect(usagesInWindow(usages, window).map((usage) => usage.sessionId)).toEqual(['s1', 's2', 's0', 's1']);
    expect(Object.fromEntries(countSkillUsage(usages, window))).toEqual({ 'mcp/email': 3, 'research/web': 1 });
    expect(countSkillUsage(usages, usageWindow(NOW, 3)).get('mcp/email')).toBe(2);
  });
});
