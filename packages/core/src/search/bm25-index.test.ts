import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25-index';
import { indexMemoryEntry, memoryDocumentText, memoryLabelWords } from './memory-document-text';
import { tokenize } from './stop-words';

describe('memoryDocumentText', () => {
  it('joins content, tags and the category with / and - as spaces (SPEC M3)', () => {
    expect(memoryDocumentText({ content: 'Chicago', tags: ['tz', 'home'], category: 'user-preferences/time-zone' })).toBe(
      'Chicago tz home user preferences time zone',
    );
  });
});

describe('memoryLabelWords', () => {
  it('counts the words the category adds at the end of memoryDocumentText, stop words left out', () => {
    expect(memoryLabelWords({ category: 'user-preferences/time-zone' })).toBe(4);
    expect(memoryLabelWords({ category: 'people/jon/dance-studio' })).toBe(4);
    expect(memoryLabelWords({ category: 'notes/the-end' })).toBe(2);
    expect(memoryLabelWords({ category: 'general' })).toBe(1);
    const entry = { content: 'Chicago', tags: ['tz'], category: 'notes/the-end' };
    expect(tokenize(memoryDocumentText(entry)).slice(-memoryLabelWords(entry))).toEqual(['notes', 'end']);
  });
});

describe('indexMemoryEntry (a category is a label: SPEC M3)', () => {
  const entry = (id: string, content: string, category: string) => ({ id, content, tags: ['jon'], category });
  const filler = [
    entry('f1', 'Gina likes tea in the morning', 'general'),
    entry('f2', 'Gina opened an online clothing store', 'general'),
    entry('f3', 'Jon reads a book about marketing', 'general'),
  ];
  const scoreOf = (documents: ReturnType<typeof entry>[], id: string, query: string) => {
    const index = new Bm25Index();
    for (const document of documents) indexMemoryEntry(index, document);
    return index.search(query).find((hit) => hit.id === id)?.score;
  };

  it('leaves a re-filed entry its score for a question that names none of its category’s words', () => {
    const content = 'Jon has a studio business he showed at a fair';
    const before = scoreOf([...filler, entry('a', content, 'general')], 'a', 'business fair');
    const after = scoreOf([...filler, entry('a', content, 'people/jon/dance-studio')], 'a', 'business fair');
    expect(before).toBeGreaterThan(0);
    expect(after).toBe(before);
  });

  it('still finds an entry by its category’s words', () => {
    expect(scoreOf([...filler, entry('a', 'Jon rehearses every evening', 'people/jon/dance-studio')], 'a', 'dance studio')).toBeGreaterThan(
      0,
    );
  });

  it('ranks an entry filed deeper level with one filed in general when the question names neither category', () => {
    const documents = [
      ...filler,
      entry('deep', 'Jon has a studio business he showed at a fair', 'people/jon/dance-studio'),
      entry('flat', 'Jon has a studio business he showed at a fair', 'general'),
    ];
    const index = new Bm25Index();
    for (const document of documents) indexMemoryEntry(index, document);
    const [first, second] = index.search('business fair');
    expect(first!.score).toBe(second!.score);
  });

  it('indexes the text again when only the label moved (words shifted between the tags and the category)', () => {
    const index = new Bm25Index();
    for (const document of filler) indexMemoryEntry(index, document);
    const tagged = { id: 'a', content: 'studio fair', tags: ['dance'], category: 'general' };
    const filed = { id: 'a', content: 'studio fair', tags: [], category: 'dance/general' };
    expect(memoryDocumentText(tagged)).toBe(memoryDocumentText(filed));
    indexMemoryEntry(index, tagged);
    const asTagged = index.search('studio')[0]!.score;
    indexMemoryEntry(index, filed);
    const asFiled = index.search('studio')[0]!.score;
    const fresh = new Bm25Index();
    for (const document of [...filler, filed]) indexMemoryEntry(fresh, document);
    expect(asFiled).toBe(fresh.search('studio')[0]!.score);
    expect(asFiled).toBeGreaterThan(asTagged);
  });

  it('refuses a label that is not a whole number of words', () => {
    const index = new Bm25Index();
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => index.set('a', 'text', [], bad)).toThrow(/labelWords/);
    expect(index.size).toBe(0);
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

describe('Bm25Index stemming (SPEC M3)', () => {
  const index = (analysis?: 'stemmed' | 'exact') => {
    const i = new Bm25Index(analysis ? { analysis } : {});
    i.set('research', 'the research on batteries');
    i.set('researched', 'she researched batteries');
    i.set('deployment', 'the deployment failed twice');
    i.set('physio', 'physiotherapy twice a week');
    i.set('went', 'he went home early');
    return i;
  };

  it('matches other forms of a word: "researched" finds "research", "deploys" finds "deployment", "go" finds "went"', () => {
    expect(
      index()
        .search('researched')
        .map((hit) => hit.id),
    ).toEqual(['researched', 'research']);
    expect(
      index()
        .search('deploys')
        .map((hit) => hit.id),
    ).toEqual(['deployment']);
    expect(
      index()
        .search('go')
        .map((hit) => hit.id),
    ).toEqual(['went']);
  });

  it('ranks an exact match of a word above a match of another form, whichever form is asked', () => {
    const i = index();
    expect(i.search('research').map((hit) => hit.id)).toEqual(['research', 'researched']);
    expect(i.search('researched').map((hit) => hit.id)).toEqual(['researched', 'research']);
    const [exact, other] = i.search('researched');
    expect(other!.score).toBeLessThan(exact!.score);
  });

  it('still matches longer words a query word begins (prefix), which stemming alone would miss', () => {
    expect(
      index()
        .search('physio')
        .map((hit) => hit.id),
    ).toEqual(['physio']);
  });

  it("with analysis 'exact', matches words as written, as before stemming", () => {
    const i = index('exact');
    expect(i.search('researched').map((hit) => hit.id)).toEqual(['researched']);
    expect(i.search('deploys')).toEqual([]);
    expect(i.search('deploy').map((hit) => hit.id)).toEqual(['deployment']);
  });

  it('asks for the words as written with stems: false (as neighbour queries do)', () => {
    expect(
      index()
        .search('researched', { stems: false })
        .map((hit) => hit.id),
    ).toEqual(['researched']);
    expect(index().search('deploys', { stems: false })).toEqual([]);
  });

  it('refuses an analysis it does not know with INVALID_OPTIONS', () => {
    expect(() => new Bm25Index({ analysis: 'fuzzy' as 'exact' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });

  it('counts stems out of the document frequencies when a document is replaced or deleted', () => {
    const i = index();
    i.set('researched', 'she baked bread');
    expect(i.search('researching').map((hit) => hit.id)).toEqual(['research']);
    i.delete('research');
    expect(i.search('researching')).toEqual([]);
    const state = i.exportState();
    expect(state.vocabulary.filter((term) => term.startsWith('~research'))).toEqual([]);
  });

  it('scores a document by its words: stems add terms, not length', () => {
    const stemmed = index();
    const exact = index('exact');
    // A word whose stem is itself ("twice") scores as it did before stemming.
    expect(stemmed.search('twice', { prefix: false })).toEqual(exact.search('twice', { prefix: false }));
  });
});

describe('Bm25Index against a brute-force BM25', () => {
  // The reference: score every document from scratch with the textbook formula.
  function bruteForce(docs: Map<string, string>, query: string): Array<{ id: string; score: number }> {
    const tokenized = new Map([...docs].map(([id, text]) => [id, tokenize(text)]));
    const n = tokenized.size;
    const avg = [...tokenized.values()].reduce((sum, terms) => sum + terms.length, 0) / n || 1;
    const hits: Array<{ id: string; score: number }> = [];
    for (const [id, terms] of tokenized) {
      let score = 0;
      for (const term of new Set(tokenize(query))) {
        const df = [...tokenized.values()].filter((t) => t.includes(term)).length;
        const freq = terms.filter((t) => t === term).length;
        if (freq === 0) continue;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * (freq * 2.2)) / (freq + 1.2 * (1 - 0.75 + (0.75 * terms.length) / avg));
      }
      if (score > 0) hits.push({ id, score });
    }
    return hits.sort((a, b) => b.score - a.score);
  }

  const words = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa', 'sigma'];

  it.each([
    ['holding the texts', false],
    ['asking the caller for the texts (textOf)', true],
  ])('gives the same scores for exact terms, after any sequence of sets and deletes, %s', (_, asks) => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({
              op: fc.constant('set' as const),
              id: fc.integer({ min: 0, max: 15 }),
              words: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 8 }),
            }),
            fc.record({ op: fc.constant('delete' as const), id: fc.integer({ min: 0, max: 15 }) }),
          ),
          { maxLength: 60 },
        ),
        fc.constantFrom(...words), // none is a prefix of another, so expansion adds nothing
        (operations, queryWord) => {
          const docs = new Map<string, string>();
          // A caller that gives texts back changes its own record only after the index call.
          const index = new Bm25Index(asks ? { textOf: (id) => docs.get(id) } : {});
          for (const operation of operations) {
            if (operation.op === 'set') {
              index.set(`d${operation.id}`, operation.words.join(' '));
              docs.set(`d${operation.id}`, operation.words.join(' '));
            } else {
              index.delete(`d${operation.id}`);
              docs.delete(`d${operation.id}`);
            }
          }
          const expected = bruteForce(docs, queryWord);
          const actual = index.search(queryWord);
          expect(actual.map((h) => h.id).sort()).toEqual(expected.map((h) => h.id).sort());
          for (const hit of actual) expect(hit.score).toBeCloseTo(expected.find((e) => e.id === hit.id)!.score, 9);
          expect(index.size).toBe(docs.size);
        },
      ),
    );
  });

  it.each([
    ['holding the texts', false],
    ['asking the caller for the texts (textOf)', true],
  ])('stays correct after deletions trigger a compaction, %s', (_, asks) => {
    const docs = new Map<string, string>();
    const index = new Bm25Index(asks ? { textOf: (id) => docs.get(id) } : {});
    for (let i = 0; i < 3000; i++) {
      const text = i % 3 === 0 ? `invoice number ${i}` : `meeting notes ${i}`;
      index.set(`d${i}`, text);
      docs.set(`d${i}`, text);
    }
    for (let i = 0; i < 3000; i++) {
      if (i % 3 === 0) continue;
      index.delete(`d${i}`);
      docs.delete(`d${i}`);
    }
    expect(index.size).toBe(1000);
    expect(index.search('meeting')).toEqual([]);
    expect(index.search('invoice', { limit: 2000 })).toHaveLength(1000);
    expect(index.search('invoice', { filter: (id) => id === 'd2997' || id === 'd3' })).toHaveLength(2);
  });
});

describe('Bm25Index exportState / importState', () => {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'deltas', 'omega', 'kappa', 'sigma'];
  const operation = fc.oneof(
    fc.record({
      op: fc.constant('set' as const),
      id: fc.integer({ min: 0, max: 15 }),
      words: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 8 }),
    }),
    fc.record({ op: fc.constant('delete' as const), id: fc.integer({ min: 0, max: 15 }) }),
  );
  const run = (
    index: Bm25Index,
    docs: Map<string, string>,
    operations: ReadonlyArray<{ op: 'set' | 'delete'; id: number; words?: string[] }>,
  ) => {
    for (const { op, id, words: chosen } of operations) {
      if (op === 'set') {
        index.set(`d${id}`, chosen!.join(' '));
        docs.set(`d${id}`, chosen!.join(' '));
      } else {
        index.delete(`d${id}`);
        docs.delete(`d${id}`);
      }
    }
  };
  /** Every hit, by score then id; `limit` 16 (every document) takes the pruned path an import warms up. */
  const canonical = (index: Bm25Index, query: string, limit?: number) =>
    index.search(query, limit === undefined ? {} : { limit, prune: true }).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));

  it('an imported index answers as the exported one, before and after further sets and deletes', () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 40 }),
        fc.array(operation, { maxLength: 20 }),
        fc.constantFrom(...words, 'delt alpha'),
        (before, after, query) => {
          const original = new Bm25Index();
          const docs = new Map<string, string>();
          run(original, docs, before);
          const exported = new Map(docs);
          const imported = new Bm25Index();
          imported.importState(original.exportState(), (id) => exported.get(id)!);
          expect(imported.size).toBe(original.size);
          expect(canonical(imported, query)).toEqual(canonical(original, query));
          expect(canonical(imported, query, 16)).toEqual(canonical(original, query, 16));
          run(original, new Map(docs), after);
          run(imported, docs, after);
          expect(canonical(imported, query)).toEqual(canonical(original, query));
        },
      ),
    );
  });

  it('refuses a state that is not well formed and is left empty', () => {
    const index = new Bm25Index();
    index.set('a', 'alpha beta');
    index.set('b', 'beta gamma');
    const state = index.exportState();
    const target = new Bm25Index();
    expect(() => target.importState({ ...state, ids: ['a', 'a'] }, () => 'alpha beta')).toThrow();
    expect(target.size).toBe(0);
    expect(() => target.importState({ ...state, docs: state.docs.map(() => 7) }, () => 'alpha beta')).toThrow();
    expect(target.size).toBe(0);
    // A term's postings out of order (a search with a limit reads them in order).
    const beta = state.offsets[state.vocabulary.indexOf('beta')]!;
    const swapped = state.docs.slice();
    [swapped[beta], swapped[beta + 1]] = [swapped[beta + 1]!, swapped[beta]!];
    expect(() => target.importState({ ...state, docs: swapped }, () => 'alpha beta')).toThrow();
    expect(target.size).toBe(0);
    expect(() => target.importState({ ...state, vocabulary: [...state.vocabulary].reverse() }, () => 'alpha beta')).toThrow();
    expect(target.search('beta')).toEqual([]);
  });
});

describe('Bm25Index with a limit (ranges skipped by their bounds) against every posting scored', () => {
  // A few common words in most documents, rarer ones, and words that are prefixes of others
  // (matched at 0.4 weight), so that many documents tie and many ranges can be skipped.
  const words = ['deploy', 'deployment', 'deployed', 'note', 'notes', 'alpha', 'beta', 'gamma', 'invoice', 'invoices', 'kappa', 'sigma'];
  const text = fc
    .array(
      fc.oneof({ weight: 6, arbitrary: fc.constantFrom('deploy', 'note', 'alpha') }, { weight: 1, arbitrary: fc.constantFrom(...words) }),
      { minLength: 1, maxLength: 6 },
    )
    .map((chosen) => chosen.join(' '));
  const operation = fc.oneof(
    { weight: 8, arbitrary: fc.record({ op: fc.constant('set' as const), id: fc.integer({ min: 0, max: 599 }), text }) },
    // Long documents move the average length (and the bounds' reference) between searches.
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('set' as const),
        id: fc.integer({ min: 0, max: 599 }),
        text: text.map((t) => `${t} ${'padding '.repeat(30)}`),
      }),
    },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), id: fc.integer({ min: 0, max: 599 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('search' as const),
        query: fc.array(fc.constantFrom(...words, 'deplo', 'invo', 'padding'), { minLength: 1, maxLength: 4 }),
        limit: fc.integer({ min: 1, max: 40 }),
        modulus: fc.integer({ min: 1, max: 4 }),
      }),
    },
  );
  type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;
  /** Every hit of the exhaustive search (no limit), cut to the limit afterwards. */
  const expected = (index: Bm25Index, query: string, limit: number, filter?: (id: string) => boolean) =>
    index.search(query, { filter }).slice(0, limit);
  const byModulus = (modulus: number) => (modulus === 1 ? undefined : (id: string) => Number(id.slice(1)) % modulus === 0);
  /** Applies the sets and deletes, and checks every search against the exhaustive one. */
  const applyAndCompare = (index: Bm25Index, operations: ReadonlyArray<Operation>) => {
    for (const operation of operations) {
      if (operation.op === 'set') index.set(`d${operation.id}`, operation.text);
      else if (operation.op === 'delete') index.delete(`d${operation.id}`);
      else {
        const query = operation.query.join(' ');
        const filter = byModulus(operation.modulus);
        expect(index.search(query, { prune: true, limit: operation.limit, filter })).toEqual(
          expected(index, query, operation.limit, filter),
        );
      }
    }
  };

  it('returns the same hits, scores and order, after any sequence of sets and deletes, with and without a filter', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 200, maxLength: 600 }), fc.array(operation, { maxLength: 120 }), (initial, operations) => {
        const index = new Bm25Index();
        initial.forEach((t, i) => index.set(`d${i}`, t));
        applyAndCompare(index, operations);
        for (const query of ['deploy', 'deploy note alpha', 'invoice kappa', 'note padding']) {
          for (const limit of [1, 3, 10, 10_000])
            expect(index.search(query, { prune: true, limit })).toEqual(expected(index, query, limit));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('returns the same after an import, and after sets and deletes on the imported index', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 200, maxLength: 600 }), fc.array(operation, { maxLength: 80 }), (initial, operations) => {
        const original = new Bm25Index();
        const texts = new Map(initial.map((t, i) => [`d${i}`, t]));
        for (const [id, t] of texts) original.set(id, t);
        const index = new Bm25Index();
        index.importState(original.exportState(), (id) => texts.get(id)!);
        applyAndCompare(index, operations);
      }),
      { numRuns: 40 },
    );
  });

  it('returns the same over thousands of documents, where long runs of ranges are skipped', () => {
    // A few thousand documents (a hundred and more ranges), one in a few hundred holding a strong
    // rare word: a search skips long runs of the common words' ranges between the rare ones.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 2_000, max: 6_000 }), (seed, size) => {
        const index = new Bm25Index();
        let state = seed;
        const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0);
        for (let i = 0; i < size; i++) {
          const rare = next() % 300 === 0 ? ' kappa kappa sigma' : next() % 97 === 0 ? ' gamma' : '';
          index.set(`d${i}`, `${words[next() % 3]} ${words[3 + (next() % 3)]}${rare}${next() % 5 === 0 ? ' deploy deploy' : ''}`);
        }
        for (const query of ['kappa', 'kappa deploy', 'sigma note alpha', 'gamma deploy note', 'deploy note', 'invoice kappa gamma']) {
          for (const limit of [1, 5, 20]) expect(index.search(query, { prune: true, limit })).toEqual(expected(index, query, limit));
        }
      }),
      { numRuns: 12 },
    );
  });

  it('breaks ties by the order documents were indexed, as the exhaustive search does', () => {
    const index = new Bm25Index();
    for (let i = 0; i < 2000; i++) index.set(`d${i}`, i % 7 === 0 ? 'invoice invoice paid' : 'invoice paid late');
    const hits = index.search('invoice', { prune: true, limit: 5 });
    expect(hits.map((hit) => hit.id)).toEqual(['d0', 'd7', 'd14', 'd21', 'd28']);
    expect(hits).toEqual(expected(index, 'invoice', 5));
    expect(index.search('invoice', { prune: true, limit: 5, filter: (id) => id.endsWith('1') })).toEqual(
      expected(index, 'invoice', 5, (id) => id.endsWith('1')),
    );
  });

  it('finds a document whose score rose with the average length since the bounds were computed', () => {
    // At an average of ~199 terms, x (101 terms, the first document) scores under y (100 terms,
    // the 151st) for "invoice"; y's bound, computed then, is below x's score once the average
    // grew by 4 %.
    const index = new Bm25Index();
    index.set('x', `invoice ${'filler '.repeat(100)}`);
    for (let i = 1; i < 200; i++)
      index.set(i === 150 ? 'y' : `d${i}`, i === 150 ? `invoice ${'filler '.repeat(99)}` : 'ledger '.repeat(200));
    expect(index.search('invoice', { prune: true, limit: 1 }).map((hit) => hit.id)).toEqual(['y']);
    for (let i = 200; i < 209; i++) index.set(`d${i}`, 'ledger '.repeat(400));
    expect(index.search('invoice', { prune: true, limit: 1 })).toEqual(expected(index, 'invoice', 1));
    expect(index.search('invoice', { prune: true, limit: 1 }).map((hit) => hit.id)).toEqual(['y']);
  });

  it('asks the filter about the best documents only, however the documents are numbered', () => {
    const index = new Bm25Index();
    for (let i = 0; i < 3000; i++) index.set(`d${i}`, i < 2000 ? 'invoice paid' : 'invoice invoice paid');
    let asked = 0;
    const filter = (id: string) => {
      asked += 1;
      return Number(id.slice(1)) >= 2000;
    };
    expect(index.search('invoice', { prune: true, limit: 5, filter }).map((hit) => hit.id)).toEqual([
      'd2000',
      'd2001',
      'd2002',
      'd2003',
      'd2004',
    ]);
    expect(asked).toBeLessThanOrEqual(32);
  });

  it('stays the same for a query of more terms than the last one, between smaller ones (the search state is reused)', () => {
    const index = new Bm25Index();
    const vocabulary = Array.from({ length: 40 }, (_, i) => `w${i}x`);
    for (let i = 0; i < 3000; i++) index.set(`d${i}`, vocabulary.filter((_, w) => (i * 7 + w * 13) % (w + 3) === 0).join(' ') || 'w0x');
    const queries = ['w1x w2x', vocabulary.slice(0, 33).join(' '), 'w3x', vocabulary.join(' '), 'w5x w39x'];
    for (const query of queries) {
      for (const limit of [1, 8, 40]) expect(index.search(query, { prune: true, limit })).toEqual(expected(index, query, limit));
    }
  });

  it('stays the same after deletions trigger a compaction', () => {
    const index = new Bm25Index();
    for (let i = 0; i < 3000; i++)
      index.set(`d${i}`, `${i % 11 === 0 ? 'invoice invoice' : 'invoice'} ${i % 3 === 0 ? 'meeting' : 'notes'}`);
    expect(index.search('invoice meeting', { prune: true, limit: 7 })).toEqual(expected(index, 'invoice meeting', 7));
    for (let i = 0; i < 3000; i++) if (i % 3 !== 0) index.delete(`d${i}`);
    for (let i = 3000; i < 3500; i++) index.set(`d${i}`, 'invoice invoice invoice meeting');
    expect(index.search('invoice meeting', { prune: true, limit: 7 })).toEqual(expected(index, 'invoice meeting', 7));
    expect(index.search('invoice', { prune: true, limit: 2000 })).toEqual(expected(index, 'invoice', 2000));
  });
});

describe('Bm25Index: prune', () => {
  it('gives the same hits whether a search with a limit prunes or scores every posting', () => {
    const index = new Bm25Index();
    Array.from(
      { length: 300 },
      (_, i) => `note ${i} about ${i % 3 ? 'deploys' : 'budgets'} and ${i % 7 ? 'tea' : 'coffee'} ticket t${i}`,
    ).forEach((text, i) => index.set(`d${i}`, text));
    for (const query of ['deploys tea', 'coffee budgets', 'ticket t17 deploys', 'note']) {
      for (const limit of [1, 5, 400]) {
        expect(index.search(query, { limit, prune: false })).toEqual(index.search(query, { limit, prune: true }));
        expect(index.search(query, { limit })).toEqual(index.search(query, { limit, prune: true }));
        expect(index.search(query, { limit, prune: false })).toEqual(index.search(query).slice(0, limit));
      }
    }
  });
});

describe('Bm25Index passages (SPEC M3)', () => {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa', 'sigma'];
  const text = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 6 }).map((chosen) => chosen.join(' '));
  const operation = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant('set' as const),
        id: fc.integer({ min: 0, max: 40 }),
        text,
        passages: fc.oneof(
          { weight: 2, arbitrary: fc.constant([] as string[]) },
          { weight: 1, arbitrary: fc.array(text, { minLength: 1, maxLength: 3 }) },
        ),
      }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), id: fc.integer({ min: 0, max: 40 }) }) },
  );
  type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;
  type Document = { text: string; passages: string[] };
  const run = (index: Bm25Index, docs: Map<string, Document>, operations: readonly Operation[]) => {
    for (const operation of operations) {
      const id = `d${operation.id}`;
      if (operation.op === 'set') {
        index.set(id, operation.text, operation.passages);
        docs.set(id, { text: operation.text, passages: operation.passages });
      } else {
        index.delete(id);
        docs.delete(id);
      }
    }
  };

  /** The reference: each document scored from scratch by its best part; df counts a document once, the average is of its texts. */
  function bruteForce(docs: Map<string, Document>, query: string): Array<{ id: string; score: number }> {
    const n = docs.size;
    const avg = [...docs.values()].reduce((sum, doc) => sum + tokenize(doc.text).length, 0) / n || 1;
    const holds = (doc: Document, term: string) => [doc.text, ...doc.passages].some((part) => tokenize(part).includes(term));
    const hits: Array<{ id: string; score: number }> = [];
    for (const [id, doc] of docs) {
      let best = 0;
      for (const part of [doc.text, ...doc.passages]) {
        const terms = tokenize(part);
        let score = 0;
        for (const term of new Set(tokenize(query))) {
          const df = [...docs.values()].filter((other) => holds(other, term)).length;
          const freq = terms.filter((t) => t === term).length;
          if (freq === 0) continue;
          const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
          score += (idf * (freq * 2.2)) / (freq + 1.2 * (1 - 0.75 + (0.75 * terms.length) / avg));
        }
        best = Math.max(best, score);
      }
      if (best > 0) hits.push({ id, score: best });
    }
    return hits;
  }

  it('scores a document by its best part, once, after any sequence of sets and deletes', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 60 }), fc.constantFrom(...words, 'alpha kappa'), (operations, query) => {
        const docs = new Map<string, Document>();
        const index = new Bm25Index();
        run(index, docs, operations);
        const expected = bruteForce(docs, query);
        const actual = index.search(query);
        expect(actual.map((hit) => hit.id).sort()).toEqual(expected.map((hit) => hit.id).sort());
        for (const hit of actual) expect(hit.score).toBeCloseTo(expected.find((e) => e.id === hit.id)!.score, 9);
        expect(index.size).toBe(docs.size);
        // A limit, pruned or not, and a filter give the best of the same list.
        for (const limit of [1, 3, 50]) {
          expect(index.search(query, { limit, prune: true })).toEqual(actual.slice(0, limit));
          expect(index.search(query, { limit, prune: false })).toEqual(actual.slice(0, limit));
          const filter = (id: string) => Number(id.slice(1)) % 2 === 0;
          expect(index.search(query, { limit, filter, prune: true })).toEqual(actual.filter((hit) => filter(hit.id)).slice(0, limit));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('is exported and imported with its passages, and answers the same before and after further writes', () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 40 }),
        fc.array(operation, { maxLength: 20 }),
        fc.constantFrom(...words),
        (before, after, query) => {
          const original = new Bm25Index();
          const docs = new Map<string, Document>();
          run(original, docs, before);
          const exported = new Map(docs);
          const imported = new Bm25Index();
          imported.importState(
            original.exportState(),
            (id) => exported.get(id)!.text,
            (id) => exported.get(id)!.passages,
          );
          expect(imported.size).toBe(original.size);
          expect(imported.search(query)).toEqual(original.search(query));
          expect(imported.search(query, { limit: 3, prune: true })).toEqual(original.search(query, { limit: 3, prune: true }));
          run(original, new Map(docs), after);
          run(imported, docs, after);
          expect(imported.search(query)).toEqual(original.search(query));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('refuses a state whose passages are not those given, and keeps them through a compaction', () => {
    const index = new Bm25Index();
    index.set('a', 'alpha', ['beta gamma', 'delta']);
    index.set('b', 'beta');
    const state = index.exportState();
    expect(Array.from(state.passage)).toEqual([0, 1, 1, 0]);
    expect(() => new Bm25Index().importState(state, (id) => (id === 'a' ? 'alpha' : 'beta'))).toThrow(/passages of a/);
    for (let i = 0; i < 3000; i++) index.set(`d${i}`, 'omega');
    for (let i = 0; i < 3000; i++) index.delete(`d${i}`);
    expect(index.passagesOf('a')).toEqual(['beta gamma', 'delta']);
    expect(index.search('delta').map((hit) => hit.id)).toEqual(['a']);
    expect(
      index
        .search('beta')
        .map((hit) => hit.id)
        .sort(),
    ).toEqual(['a', 'b']);
  });
});
