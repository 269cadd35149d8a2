import { describe, expect, it } from 'vitest';
import { queryCues } from './query-cues';
import { MEMORY_RERANK, mergeHitLists, type RerankedEntry, rerankMemoryHits, rerankPool } from './rerank-memory-hits';

/** Entries by id: content, tags and the day first and last noted. */
function entries(
  list: Array<{ id: string; content?: string; tags?: string[]; day?: string; lastDay?: string }>,
): (id: string) => RerankedEntry | undefined {
  const byId = new Map(
    list.map(({ id, content = `entry ${id}`, tags = [], day = '2023-01-01', lastDay = day }) => [
      id,
      { content, tags, createdAt: `${day}T10:00:00.000Z`, lastSeenAt: `${lastDay}T10:00:00.000Z` },
    ]),
  );
  return (id) => byId.get(id);
}

const ids = (hits: ReadonlyArray<{ id: string }>) => hits.map((hit) => hit.id);
const rerank = (
  hits: ReadonlyArray<{ id: string; score: number }>,
  query: string,
  entryOf: (id: string) => RerankedEntry | undefined,
  limit = hits.length,
) => rerankMemoryHits(hits, queryCues(query), entryOf, limit);

describe('rerankMemoryHits', () => {
  it('counts an entry tagged with a name the query holds 1 + tagBoost times', () => {
    const hits = [
      { id: 'a', score: 3 },
      { id: 'b', score: 2 },
      { id: 'c', score: 1 },
    ];
    const entryOf = entries([
      { id: 'a', tags: ['tim'] },
      { id: 'b', tags: ['john'] },
      { id: 'c', tags: ['john', 'basketball'] },
    ]);
    const ranked = rerank(hits, "What is John's goal for the season?", entryOf);
    expect(ids(ranked)).toEqual(['b', 'a', 'c']);
    expect(ranked.map((hit) => hit.score)).toEqual([2 * (1 + MEMORY_RERANK.tagBoost), 3, 1 * (1 + MEMORY_RERANK.tagBoost)]);
  });

  it('takes no lower-case word of the query for a name, and needs every word of a tag of several words', () => {
    const hits = [
      { id: 'a', score: 2 },
      { id: 'b', score: 1.5 },
    ];
    const entryOf = entries([{ id: 'a' }, { id: 'b', tags: ['anti-pattern'] }]);
    expect(ids(rerank(hits, 'any anti-pattern for retries?', entryOf))).toEqual(['a', 'b']);
    expect(ids(rerank(hits, 'A Pattern for retries', entryOf))).toEqual(['a', 'b']);
    expect(ids(rerank(hits, 'Any Anti-Pattern for retries?', entryOf))).toEqual(['b', 'a']);
  });

  it('puts an entry noted within a period the query names, or naming a date in it, ahead by dateBoost × the best score', () => {
    const hits = [
      { id: 'best', score: 4 },
      { id: 'other', score: 3 },
      { id: 'noted', score: 1 },
      { id: 'names', score: 0.5 },
      { id: 'across', score: 0.25 },
      { id: 'lastSeen', score: 0.2 },
    ];
    const entryOf = entries([
      { id: 'best', day: '2023-11-30' },
      { id: 'other', day: '2024-01-05' },
      { id: 'noted', day: '2023-12-20' },
      { id: 'names', content: 'Maria plans to donate her old car on 24 December 2023', day: '2023-10-01' },
      // First and last noted around December, not in it (a merge of a November and a February source).
      { id: 'across', day: '2023-11-01', lastDay: '2024-02-01' },
      { id: 'lastSeen', day: '2023-11-01', lastDay: '2023-12-02' },
    ]);
    const ranked = rerank(hits, 'What did Maria donate in December 2023?', entryOf);
    expect(ids(ranked)).toEqual(['noted', 'names', 'lastSeen', 'best', 'other', 'across']);
    expect(ranked[0]!.score).toBe(1 + MEMORY_RERANK.dateBoost * 4);
  });

  it('weighs the names first, then the periods against the best score after the names (an entry of the period comes first)', () => {
    const hits = [
      { id: 'tim', score: 3 },
      { id: 'john', score: 2 },
      { id: 'johnInMay', score: 1 },
    ];
    const entryOf = entries([
      { id: 'tim', tags: ['tim'], day: '2023-05-02' },
      { id: 'john', tags: ['john'], day: '2023-06-02' },
      { id: 'johnInMay', tags: ['john'], day: '2023-05-20' },
    ]);
    const ranked = rerank(hits, 'What did John do in May 2023?', entryOf);
    expect(ids(ranked)).toEqual(['tim', 'johnInMay', 'john']);
    expect(ranked.map((hit) => hit.score)).toEqual([3 + 4, 2 + 4, 4]);
  });

  it('keeps the first `limit` hits as they are without cues, and a hit it knows no entry for keeps its score', () => {
    const hits = [
      { id: 'a', score: 1 },
      { id: 'gone', score: 0.9 },
      { id: 'c', score: 0.5 },
    ];
    const entryOf = entries([
      { id: 'a', tags: ['ops'] },
      { id: 'c', tags: ['john'] },
    ]);
    expect(rerank(hits, 'what about ops', entryOf, 2)).toEqual(hits.slice(0, 2));
    expect(rerank(hits, 'And John?', entryOf, 3)).toEqual([hits[0], { id: 'c', score: 1 }, hits[1]]);
    expect(rerank([], 'John', entryOf, 3)).toEqual([]);
  });

  it('never reads a query word as a key of a plain object', () => {
    const hits = [
      { id: 'a', score: 1.5 },
      { id: 'b', score: 1 },
    ];
    const entryOf = entries([{ id: 'a' }, { id: 'b', tags: ['constructor'] }]);
    expect(ids(rerank(hits, 'Constructor __proto__ toString', entryOf))).toEqual(['b', 'a']);
  });

  it('puts an episode that restates another hit after the others, with or without cues', () => {
    const hits = [
      { id: 'episode', score: 3 },
      { id: 'other', score: 2 },
      { id: 'fact', score: 1 },
      { id: 'more', score: 0.5 },
    ];
    const entryOf = entries([
      {
        id: 'episode',
        tags: ['episode'],
        content: 'Jon went to networking events to make things happen for his business after losing his job.',
      },
      { id: 'other', content: 'Jon visited Paris recently.' },
      { id: 'fact', content: 'Jon has been attending networking events to make things happen after losing his job.' },
      { id: 'more', content: 'Jon opened a dance studio.' },
    ]);
    expect(ids(rerank(hits, 'When did Jon visit networking events?', entryOf))).toEqual(['other', 'fact', 'more', 'episode']);
    // The restated episode leaves the top 3 for the next hit; without cues as well.
    expect(ids(rerank(hits, 'when did jon visit networking events?', entryOf, 3))).toEqual(['other', 'fact', 'more']);
    // An episode that restates nothing keeps its place; a fact an episode restates keeps its own.
    const unlike = entries([
      { id: 'episode', tags: ['episode'], content: 'Jon met investors at a networking event.' },
      { id: 'other' },
      { id: 'fact' },
      { id: 'more' },
    ]);
    expect(ids(rerank(hits, 'When did Jon visit networking events?', unlike))).toEqual(['episode', 'other', 'fact', 'more']);
    const factFirst = [hits[2]!, hits[1]!, hits[0]!];
    expect(ids(rerank(factFirst, 'networking events', entryOf))).toEqual(['fact', 'other', 'episode']);
    // Two episodes that say the same: the lower one goes after the rest.
    const twice = entries([
      { id: 'episode', tags: ['episode'], content: 'Jon met investors at a networking event.' },
      { id: 'other', tags: ['episode'], content: 'At a networking event Jon met investors.' },
      { id: 'fact' },
      { id: 'more' },
    ]);
    expect(ids(rerank(hits, 'networking events', twice))).toEqual(['episode', 'fact', 'more', 'other']);
  });
});

describe('rerankPool', () => {
  it('weighs twice the results asked for, at least 16, when the query has cues, and no more than asked otherwise', () => {
    expect(rerankPool(10, queryCues('What did Caroline paint?'))).toBe(20);
    expect(rerankPool(5, queryCues('in December 2023'))).toBe(MEMORY_RERANK.minPool);
    expect(rerankPool(10, queryCues('what did caroline paint?'))).toBe(10);
  });
});

describe('mergeHitLists', () => {
  it('merges two lists of one ranking best first, each id once', () => {
    const first = [
      { id: 'a', score: 3 },
      { id: 'b', score: 1 },
    ];
    const second = [
      { id: 'c', score: 2 },
      { id: 'b', score: 1 },
      { id: 'd', score: 1 },
    ];
    expect(mergeHitLists(first, second)).toEqual([
      { id: 'a', score: 3 },
      { id: 'c', score: 2 },
      { id: 'b', score: 1 },
      { id: 'd', score: 1 },
    ]);
  });
});
