import { describe, expect, it } from 'vitest';
import { firstSegment, prefixClusters } from './prefix-clusters';

describe('prefix clusters (SPEC D9)', () => {
  it('groups names by first segment, keeps groups of two or more, and counts the bare prefix in', () => {
    expect(firstSegment('mcp/email/send')).toBe('mcp');
    expect(firstSegment('solo')).toBe('solo');
    expect(prefixClusters(['mcp/email', 'research/web', 'mcp', 'mcp/calendar/sync', 'solo', 'writing/tone', 'writing/style'])).toEqual([
      { prefix: 'mcp', names: ['mcp', 'mcp/calendar/sync', 'mcp/email'] },
      { prefix: 'writing', names: ['writing/style', 'writing/tone'] },
    ]);
    expect(prefixClusters(['a/x', 'b/y'])).toEqual([]);
  });
});
