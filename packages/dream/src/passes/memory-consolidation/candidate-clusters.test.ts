import type { MemoryEntry } from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { CandidateLinks, findCandidateClusters, ItemNumbers } from './candidate-clusters';
import type { ConsolidationItem } from './consolidation-item';

function item(id: string, content: string): ConsolidationItem {
  const view: MemoryEntry = {
    id,
    content,
    category: 'general',
    tags: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    lastSeenAt: '2026-01-01T00:00:00.000Z',
    reinforcementCount: 1,
    importance: 0.5,
    metadata: {},
  };
  return { id, view, members: [view] };
}

const ITEMS = [
  item('a00000000001', 'User lives in Berlin'),
  item('a00000000002', 'The user is based in Berlin, Germany'),
  item('a00000000003', 'User moved to Berlin in 2024'),
  item('b00000000001', 'User prefers dark mode in the editor'),
  item('b00000000002', 'User prefers dark themes everywhere'),
  item('c00000000001', 'Project Atlas deploys to AWS eu-central-1'),
  item('d00000000001', 'The user likes tea in the morning'),
];
const OPTIONS = { neighbours: 5, minNeighbourScore: 0.2, maxClusterSize: 24 };

describe('findCandidateClusters', () => {
  it('clusters each seed with its similar entries and leaves unrelated ones out', () => {
    const clusters = findCandidateClusters(ITEMS, ['a00000000001'], [], OPTIONS);
    expect(clusters).toHaveLength(1);
    expect(clusters[0]!.ids[0]).toBe('a00000000001');
    expect(new Set(clusters[0]!.ids)).toEqual(new Set(['a00000000001', 'a00000000002', 'a00000000003']));
  });

  it('makes no cluster for a seed without neighbours', () => {
    expect(findCandidateClusters(ITEMS, ['c00000000001'], [], OPTIONS)).toEqual([]);
  });

  it('unions overlapping neighbourhoods and keeps separate topics separate', () => {
    const clusters = findCandidateClusters(ITEMS, ['a00000000002', 'a00000000003', 'b00000000002'], [], OPTIONS);
    expect(clusters.map((cluster) => new Set(cluster.ids))).toEqual([
      new Set(['a00000000001', 'a00000000002', 'a00000000003']),
      new Set(['b00000000001', 'b00000000002']),
    ]);
  });

  it('puts the entries found for a correction first, even alone', () => {
    const clusters = findCandidateClusters(ITEMS, ['b00000000002'], ['You deployed Atlas to the wrong AWS region'], OPTIONS);
    expect(clusters[0]).toEqual({ ids: ['c00000000001'], feedback: true });
    expect(clusters[1]!.feedback).toBe(false);
  });

  it('honours the relative score threshold', () => {
    const strict = findCandidateClusters(ITEMS, ['a00000000001'], [], { neighbours: 5, minNeighbourScore: 0.99, maxClusterSize: 24 });
    expect(strict).toEqual([]);
  });

  it('never grows a cluster past maxClusterSize, keeping the strongest links together', () => {
    // A chain of entries where each resembles the next a little, and one true duplicate pair.
    const chain = Array.from({ length: 30 }, (_, i) =>
      item(`e${String(i).padStart(11, '0')}`, `note about topic${i} and topic${i + 1} with shared filler words`),
    );
    const twins = [
      item('f00000000001', 'Ana locker code is 4471 in building seven'),
      item('f00000000002', 'Locker code 4471 for Ana in building seven'),
    ];
    const all = [...chain, ...twins];
    const clusters = findCandidateClusters(
      all,
      all.map((entry) => entry.id),
      [],
      { neighbours: 5, minNeighbourScore: 0.2, maxClusterSize: 6 },
    );
    for (const cluster of clusters) expect(cluster.ids.length).toBeLessThanOrEqual(6);
    const twinCluster = clusters.find((cluster) => cluster.ids.includes('f00000000001'));
    expect(twinCluster?.ids).toContain('f00000000002');
    expect(new Set(clusters.flatMap((cluster) => cluster.ids)).size).toBe(clusters.flatMap((cluster) => cluster.ids).length);
  });
});

describe('CandidateLinks', () => {
  it('orders links strongest first, equally strong ones in the order they were found', () => {
    const links = new CandidateLinks(new ItemNumbers(['x1', 'y1', 'x2', 'y2', 'x3', 'y3', 'x4', 'y4', 'x5', 'y5']));
    links.add('x1', 'y1', 0.5);
    links.add('x2', 'y2', 0.9);
    links.add('x3', 'y3', 0.5);
    links.add('x4', 'y4', 1);
    links.add('x5', 'y5', 0.5);
    expect([...links.strongestFirst()].map((index) => links.numbers.ids[links.a(index)])).toEqual(['x4', 'x2', 'x1', 'x3', 'x5']);
  });
});
