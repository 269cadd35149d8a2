import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25-index';
import { memoryDocumentText } from './memory-document-text';
import { tokenize } from './stop-words';

describe('memoryDocumentText', () => {
  it('joins content, tags and the category with / and - as spaces (SPEC M3)', () => {
    expect(memoryDocumentText({ content: 'Chicago', tags: ['tz', 'home'], category: 'user-preferences/time-zone' })).toBe(
      'Chicago tz home user preferences time zone',
    );
  });
});

describe('tokenize', () => {
  it('lower-cases, splits on punctuation and drops stop words', () => {
    expect(tokenize('What is the Deploy-Process, please?')).toEqual(['deploy', 'process']);
  });
});

describe('Bm25Index', () => {
  const index = () => {
    const i = new Bm25Index();
    i.set('a', 'the deployment pipeline runs on github actions');
    i.set('b', 'deploy to production only on tuesdays');
    i.set('c', 'the cat is called luna');
    return i;
  };

  it('ranks documents by BM25 and matches prefixes of longer terms', () => {
    const hits = index().search('deploy');
    expect(hits.map((h) => h.id).sort()).toEqual(['a', 'b']);
    expect(hits[0]?.id).toBe('b');
  });

  it('returns nothing for stop-word-only or empty queries', () => {
    expect(index().search('the is')).toEqual([]);
    expect(index().search('   ')).toEqual([]);
  });

  it('replaces and deletes documents', () => {
    const i = index();
    i.set('c', 'the dog is called rex');
    expect(i.search('luna')).toEqual([]);
    expect(i.search('rex').map((h) => h.id)).toEqual(['c']);
    expect(i.delete('c')).toBe(true);
    expect(i.delete('c')).toBe(false);
    expect(i.search('rex')).toEqual([]);
    expect(i.size).toBe(2);
  });

  it('filters before limiting', () => {
    const i = new Bm25Index();
    for (let n = 0; n < 20; n++) i.set(`d${n}`, `note ${n} about invoices`);
    const hits = i.search('invoices', { filter: (id) => id.endsWith('7'), limit: 5 });
    expect(hits.map((h) => h.id).sort()).toEqual(['d17', 'd7']);
  });
});
