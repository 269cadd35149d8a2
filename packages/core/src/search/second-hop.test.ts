import { describe, expect, it } from 'vitest';
import type { MemoryEntry, MemorySearchQuery, MemorySearchResult } from '../schemas/memory-entry';
import { Bm25Index } from './bm25-index';
import { bridgeNames, mergeSecondHop, searchWithSecondHop } from './second-hop';

/** A search result; only the id, content and score matter to the second hop. */
function result(id: string, score: number, content = ''): MemorySearchResult {
  return { entry: { id, content } as MemoryEntry, score };
}

const ids = (results: readonly MemorySearchResult[]) => results.map(({ entry }) => entry.id);

describe('bridgeNames (SPEC M3)', () => {
  it('takes the capitalised words the question does not hold, lower case, in order, each once', () => {
    expect(
      bridgeNames('Where is my supervisor right now?', 'My supervisor is Professor Ingrid Solberg; Ingrid chairs the Fram project.'),
    ).toEqual(['professor', 'ingrid', 'solberg', 'fram']);
  });

  it('leaves out words of the question, by their lower-case form or their stem', () => {
    expect(bridgeNames("When is Maya's sister's birthday?", "Maya's sister Priya is a nurse in Toronto.")).toEqual(['priya', 'toronto']);
    expect(bridgeNames('what do the Reyes family own', 'The Reyes own a boat.')).toEqual([]);
  });

  it('takes a word that opens a sentence only when a name follows it or the text holds it mid-sentence', () => {
    expect(bridgeNames('who is my manager?', 'Tom Reyes is my manager.')).toEqual(['tom', 'reyes']);
    expect(bridgeNames('what does my mentee build?', 'I mentor Kofi. Kofi is building the reminders feature.')).toEqual(['kofi']);
    expect(bridgeNames('what did I buy?', 'Bought oat milk. Yesterday it rained at Lidl.')).toEqual(['lidl']);
  });

  it('leaves out stop words, months and weekdays', () => {
    expect(bridgeNames('when do I bake?', 'We bake with Ana on Mondays. In May and on Friday, The Oven Club meets.')).toEqual([
      'ana',
      'oven',
      'club',
    ]);
  });

  it('stops at max names', () => {
    expect(bridgeNames('who?', 'I met Ana, Ben, Cleo and Dev in Oslo.', 2)).toEqual(['ana', 'ben']);
  });
});

describe('mergeSecondHop (SPEC M3)', () => {
  const first = [result('a', 9), result('b', 8), result('c', 7), result('d', 6), result('e', 5)];

  it('keeps the first search’s best places and gives the last ones to the second search’s new hits', () => {
    const second = [result('a', 4), result('x', 3), result('y', 2), result('z', 1)];
    expect(ids(mergeSecondHop(first, second, 5, 2))).toEqual(['a', 'b', 'c', 'x', 'y']);
  });

  it('moves a hit of the second search up from further down the first list, once', () => {
    const second = [result('e', 3), result('x', 2)];
    expect(ids(mergeSecondHop(first, second, 5, 2))).toEqual(['a', 'b', 'c', 'e', 'x']);
  });

  it('gives the first search’s rest the places the second search leaves, and the second search those the first leaves', () => {
    expect(ids(mergeSecondHop(first, [result('x', 3)], 5, 2))).toEqual(['a', 'b', 'c', 'x', 'd']);
    expect(ids(mergeSecondHop(first.slice(0, 2), [result('x', 3), result('y', 2), result('z', 1)], 5, 2))).toEqual([
      'a',
      'b',
      'x',
      'y',
      'z',
    ]);
  });

  it('always keeps the first search’s best hit', () => {
    expect(ids(mergeSecondHop(first, [result('x', 30)], 1, 2))).toEqual(['a']);
  });

  it('never lets a score rise down the list', () => {
    const merged = mergeSecondHop(first, [result('x', 50), result('y', 1)], 5, 2);
    expect(merged.map(({ entry, score }) => [entry.id, score])).toEqual([
      ['a', 9],
      ['b', 8],
      ['c', 7],
      ['x', 7],
      ['y', 1],
    ]);
  });
});

describe('searchWithSecondHop (SPEC M3)', () => {
  const memories: Record<string, string> = {
    boss: 'Tom Reyes is my boss.',
    where: 'Tom Reyes was born in Porto.',
    noise1: 'My boss approved the budget for the new office chairs.',
    noise2: 'The boss of the climbing gym changed the opening hours.',
    noise3: 'I asked my boss about the conference in the autumn.',
  };
  const index = new Bm25Index();
  for (const [id, content] of Object.entries(memories)) index.set(id, content);
  const asked: MemorySearchQuery[] = [];
  const search = async (query: MemorySearchQuery) => {
    asked.push(query);
    return index.search(query.text ?? '', { limit: query.maxResults ?? 8 }).map((hit) => result(hit.id, hit.score, memories[hit.id]));
  };

  it('finds the memory linked to the best hit only by a name, which one search misses', async () => {
    asked.length = 0;
    const query = { text: 'which city is my boss from', maxResults: 3, category: 'people' };
    expect(ids(await search(query))).not.toContain('where');
    asked.length = 0;
    const found = await searchWithSecondHop(search, query);
    expect(ids(found)).toEqual(['boss', 'where', expect.any(String)]);
    expect(asked.map(({ text, category, maxResults }) => [text, category, maxResults])).toEqual([
      ['which city is my boss from', 'people', 3],
      ['tom reyes which city is my boss from', 'people', 3],
    ]);
  });

  it('searches once when the best hit holds no name the query lacks, or there is no text', async () => {
    asked.length = 0;
    expect(ids(await searchWithSecondHop(search, { text: 'office chairs budget' }))[0]).toBe('noise1');
    await searchWithSecondHop(search, { maxResults: 3 });
    expect(asked).toHaveLength(2);
  });

  it('keeps the second query within the longest text a search accepts', async () => {
    asked.length = 0;
    await searchWithSecondHop(search, { text: `boss ${'x'.repeat(4091)}` });
    expect(asked[1]!.text).toHaveLength(4096);
    expect(asked[1]!.text!.startsWith('tom reyes boss xxx')).toBe(true);
  });
});
