import { describe, expect, it } from 'vitest';
import { clustersWithin, groupRelatedSkills, guidedCluster, pairsWithin } from './skill-calls';

const clusters = [
  { prefix: 'mcp', names: ['mcp/calendar', 'mcp/email'] },
  { prefix: 'writing', names: ['writing/style', 'writing/tone'] },
];

describe('skill calls (SPEC D9, B1)', () => {
  it('groups a cluster together and joins the groups of a co-used pair, in catalogue order', () => {
    const names = ['mcp/calendar', 'mcp/email', 'research/web', 'solo', 'writing/style', 'writing/tone'];
    expect(groupRelatedSkills(names, clusters, [])).toEqual([
      ['mcp/calendar', 'mcp/email'],
      ['research/web'],
      ['solo'],
      ['writing/style', 'writing/tone'],
    ]);
    expect(
      groupRelatedSkills(names, clusters, [
        { a: 'mcp/email', b: 'writing/tone', sessions: 2 },
        { a: 'research/web', b: 'solo', sessions: 1 },
      ]),
    ).toEqual([
      ['mcp/calendar', 'mcp/email', 'writing/style', 'writing/tone'],
      ['research/web', 'solo'],
    ]);
  });

  it('ignores pairs naming skills outside the catalogue', () => {
    expect(groupRelatedSkills(['a', 'b'], [], [{ a: 'a', b: 'gone', sessions: 3 }])).toEqual([['a'], ['b']]);
  });

  it('restricts pairs and clusters to the skills of a call', () => {
    const inCall = new Set(['mcp/calendar', 'mcp/email', 'writing/tone']);
    expect(clustersWithin(clusters, inCall)).toEqual([{ prefix: 'mcp', names: ['mcp/calendar', 'mcp/email'] }]);
    expect(
      pairsWithin(
        [
          { a: 'mcp/email', b: 'writing/tone', sessions: 1 },
          { a: 'mcp/email', b: 'writing/style', sessions: 1 },
        ],
        inCall,
      ),
    ).toEqual([{ a: 'mcp/email', b: 'writing/tone', sessions: 1 }]);
  });

  it('finds the cluster a new guide belongs to: named like it or directly under it', () => {
    expect(guidedCluster('mcp', clusters)?.prefix).toBe('mcp');
    expect(guidedCluster('mcp/guide', clusters)?.prefix).toBe('mcp');
    expect(guidedCluster('mcp/guide/deep', clusters)).toBeUndefined();
    expect(guidedCluster('cooking/guide', clusters)).toBeUndefined();
  });
});
