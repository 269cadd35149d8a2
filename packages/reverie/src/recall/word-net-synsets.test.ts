import { describe, expect, it } from 'vitest';
import { synsetOf } from './word-net-synsets';

describe('synsetOf', () => {
  it('reads the offset and the one-word lemmas, lower case, without markers, phrases or repeats', () => {
    expect(synsetOf('00100000 00 a 04 vapid(a) 0 Flat(p) 0 living_room 0 flat 1 000 | lacking taste')).toEqual({
      offset: 100000,
      lemmas: ['vapid', 'flat'],
      hypernyms: [],
    });
  });

  it('skips licence lines and empty ones', () => {
    expect(synsetOf('  1 This software and database is being provided')).toBeUndefined();
    expect(synsetOf('')).toBeUndefined();
  });

  it('reads a count of lemmas written in hexadecimal', () => {
    const words = Array.from({ length: 16 }, (_, i) => `w${i} 0`).join(' ');
    expect(synsetOf(`00000001 00 n 10 ${words} 000 | sixteen`)!.lemmas).toHaveLength(16);
  });

  it('reads the hypernyms among the pointers: `@` between whole synsets, not instances, hyponyms or lexical links', () => {
    const line =
      '01779165 37 v 02 hate 0 detest 0 005 @ 01778000 v 0000 @i 09000001 n 0000 ~ 01779500 v 0000 + 07516354 n 0101 @ 01778900 v 0000 01 + 08 00 | dislike intensely';
    expect(synsetOf(line)).toEqual({ offset: 1779165, lemmas: ['hate', 'detest'], hypernyms: [1778000, 1778900] });
  });

  it('reads the pointers after a count of lemmas over ten', () => {
    const words = Array.from({ length: 11 }, (_, i) => `w${i} 0`).join(' ');
    expect(synsetOf(`00000001 00 n 0b ${words} 001 @ 00000002 n 0000 | eleven`)!.hypernyms).toEqual([2]);
  });
});
