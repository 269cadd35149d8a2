// Over 400 lines on purpose: the index's postings, its incremental updates and the two search paths
// (exhaustive and pruned) keep one set of invariants; scoring, range bounds and the pruned top-k are
// already in files of their own.
import { PrunedTopK } from './pruned-top-k';
import { bm25Idf, PREFIX_MAX_EXPANSIONS, rarestTerms, termScore, weighQueryTerms } from './bm25-scoring';
import { hasRangeBounds, type ImpactReference, impactScale, type Posting, RANGE_SHIFT, rangeBounds, updateReference } from './range-bounds';
import { invalidOptions } from '../options/invalid-options';
import { type IndexTerms, indexedLength, indexTerms, queryWords, type QueryWord, type TermAnalysis } from './index-terms';
import { expandWithSynonyms, type Thesaurus } from './query-synonyms';

export interface Bm25Hit {
  id: string;
  /** BM25 score: higher is better, comparable only within one result list. */
  score: number;
}

export interface Bm25SearchOptions {
  /** Keep only documents for which this returns true (applied before the limit). */
  filter?: (id: string) => boolean;
  /**
   * At most this many hits, best first (default: all). With a limit, a search skips the ranges of
   * documents whose bounds show they cannot make the cut (same hits, same scores).
   */
  limit?: number;
  /** Also match longer terms that query terms begin, at reduced weight (default true). */
  prefix?: boolean;
  /**
   * With the `'stemmed'` analysis: also match other forms of the query's words, at reduced weight
   * (default true). `false` asks for the words as written (and their prefixes) only.
   */
  stems?: boolean;
  /**
   * Also match the synonyms of the query's words that this gives, below their own forms (see
   * `expandWithSynonyms`; default none). Not with `stems: false`.
   */
  synonyms?: Thesaurus;
  /**
   * With a limit: skip the ranges that cannot make the cut. `false` scores every posting, which
   * is cheaper for a query of many rare terms (an entry's rarest terms, asked for its
   * neighbours), whose short postings leave little to skip; `true` always prunes. Default: prune
   * when it pays (`pruningPays`). Same hits and scores either way.
   */
  prune?: boolean;
  /**
   * Query with only this many of the query's terms: the rarest ones in the index, which carry
   * most of the BM25 score. For long queries such as a whole entry's content (default: all).
   */
  maxTerms?: number;
  /**
   * With `maxTerms`: leave out terms found in more than this share of the documents (0–1) and
   * in more than 256 of them, as long as at least three terms remain. Their postings are the
   * longest and their weight the smallest, so this bounds what a query reads however large the
   * index grows; small indexes are not affected.
   */
  maxDocumentShare?: number;
}

export interface Bm25IndexOptions {
  /**
   * Gives back the text a document was indexed with, for as long as it is in the index (a store
   * derives it from the record it keeps): the index then holds no copy of the texts. It is asked
   * when a document is replaced or deleted and when the index compacts, so the caller changes or
   * drops its record only after `set` or `delete` returned.
   */
  textOf?: (id: string) => string | undefined;
  /**
   * `'stemmed'` (default): a word also matches its other forms, below its exact matches;
   * `'exact'`: words as written only (Reverie's ranking before stemming). See `TermAnalysis`.
   */
  analysis?: TermAnalysis;
}

/**
 * Names the tokenisation (with the default analysis, `'stemmed'`) and the layout of
 * `Bm25IndexState`: a persisted state of another format must not be imported. Change it whenever
 * either changes (stop words and the stemmer included). `bm25/1` indexed words only; `bm25/2` had
 * no passages.
 */
export const BM25_INDEX_FORMAT = 'bm25/3';

/** The searches an imported index runs before its first query (see `Bm25Index.warmUp`)… */
const WARM_UP_SEARCHES = 30;
/** …each for this many words of a document's text… */
const WARM_UP_QUERY_WORDS = 6;
/** …and this many hits, as recall asks for. */
const WARM_UP_LIMIT = 10;

/**
 * An index's state as plain arrays, for persisting (see `FileMemoryStore`'s snapshot): live
 * documents only, numbered 0…n-1 in the order they were indexed; the postings of term
 * `vocabulary[t]` are `docs`/`freqs` from `offsets[t]` to `offsets[t + 1]`.
 */
export interface Bm25IndexState {
  /** A passage (see `Bm25Index.set`) is listed under its document's id. */
  ids: string[];
  /** `passage[doc]` is 1 for a passage of document `ids[doc]`, 0 for the document itself. */
  passage: Uint8Array;
  lengths: Uint32Array;
  /** Sorted. */
  vocabulary: string[];
  offsets: Uint32Array;
  docs: Uint32Array;
  freqs: Uint32Array;
}

/**
 * A BM25 full-text index over `(id, text)` pairs (SPEC M3), written for recall at the scale of a
 * long-lived agent: an inverted index of term → (document, frequency) lists, scored into a dense
 * accumulator, so a query costs at most in proportion to the postings of its terms, not to the
 * size of the index. With a limit, documents are scored range by range of document numbers and
 * a range whose terms' impact bounds cannot beat the hits found so far is skipped unread
 * (`PrunedTopK`): common terms cost a fraction of their postings, with the same hits and
 * scores as reading them all. Measured against minisearch in
 * `docs/benchmarks.md`: minisearch builds a match record for every matching document, which
 * made p99 ~100 ms at 100k entries; this index answers the same queries in a few ms.
 *
 * Terms are lower-cased words with English stop words removed (`tokenize`) and, by default, their
 * stems (`indexTerms`): a query word matches itself with full weight, its other forms
 * ("researched" and "research") at `STEM_WEIGHT`, and, from four characters, longer words it
 * begins ("deploy" finds "deployment") at `PREFIX_WEIGHT`; terms are OR-ed. Pure and synchronous:
 * it holds only text, never records.
 */
export class Bm25Index {
  private readonly numberOf = new Map<string, number>();
  /**
   * `ids[doc]`: the id of the document `doc` is or is a passage of (undefined once deleted), so a
   * passage's hit names its document.
   */
  private ids: Array<string | undefined> = [];
  private lengths: number[] = [];
  private postings = new Map<string, Posting>();
  /** Every term in the index, sorted, for prefix expansion… */
  private vocabulary: string[] = [];
  /** …except the terms added since the last search, merged in when a search needs them. */
  private newTerms: string[] = [];
  /** Live documents and passages (see `set`): the numbers in use that a search may score. */
  private liveCount = 0;
  /** The documents' lengths added up, their passages' not: the average length is that of a document. */
  private totalLength = 0;
  private scores = new Float64Array(0);
  /** Scratch space for a search: the documents it scored, reused so a search allocates little. */
  private touched = new Uint32Array(0);
  /** Searches with a limit, one after another (see `PrunedTopK`: kept so that its shape lives on). */
  private readonly topK = new PrunedTopK();
  /** The document length the postings' impact bounds are computed at (see `ImpactReference`). */
  private readonly reference: ImpactReference = { length: 0, generation: 0 };
  /** The text of each document, except those imported and not changed since… */
  private readonly texts = new Map<string, string>();
  /** …whose text this gives, as it was when imported (computed on demand, not held). */
  private importedText: ((id: string) => string) | undefined;
  /** The passages of each document that has some: their numbers and texts, in order. */
  private readonly passages = new Map<string, { docs: number[]; texts: readonly string[] }>();
  /** How many live passages there are: while there are some, a search keeps each document's best hit only. */
  private passageCount = 0;

  private readonly analysis: TermAnalysis;

  /** With `textOf`, the index holds no text (see `Bm25IndexOptions`). */
  constructor(private readonly options: Bm25IndexOptions = {}) {
    const analysis = options.analysis ?? 'stemmed';
    if (analysis !== 'stemmed' && analysis !== 'exact') {
      throw invalidOptions(`Bm25Index option analysis must be 'stemmed' or 'exact', not ${JSON.stringify(analysis)}.`, [
        { path: 'analysis', message: "must be 'stemmed' or 'exact'" },
      ]);
    }
    this.analysis = analysis;
  }

  /** How many documents the index holds (their passages not counted). */
  get size(): number {
    return this.numberOf.size;
  }

  has(id: string): boolean {
    return this.numberOf.has(id);
  }

  /**
   * Adds a document, or replaces the text and passages of one already indexed. `passages` are
   * parts of the document scored on their own (SPEC M3): a search ranks the document by the best
   * of its text and its passages, each at its own length, and returns it once. A store indexes a
   * merged entry's sources this way (`MemoryLineage.passages`), so the merge ranks as the source
   * a question was about would have. The index's statistics stay those of the documents: a term's
   * document frequency counts a document once whether its text or a passage holds the term, and
   * the average length is that of the documents' texts.
   *
   * The last `labelWords` words of the text and of each passage are a label (a memory entry's
   * category, `memoryLabelWords`): they are indexed and matched like the others, but do not count
   * in the length, so filing a document elsewhere leaves its score for other words as it was.
   */
  set(id: string, text: string, passages: readonly string[] = [], labelWords = 0): void {
    if (!Number.isSafeInteger(labelWords) || labelWords < 0) {
      throw invalidOptions(`Bm25Index.set: labelWords must be a whole number of words, 0 or more, not ${String(labelWords)}.`, [
        { path: 'labelWords', message: 'must be an integer ≥ 0' },
      ]);
    }
    const doc = this.numberOf.get(id);
    if (
      doc !== undefined &&
      this.textOf(id) === text &&
      samePassages(this.passagesOf(id), passages) &&
      // The same text with another label (words moved between an entry's tags and its category) has another length.
      this.lengths[doc] === indexedLength(text, labelWords)
    ) {
      // Held from now on, so whoever gave `importedText` may forget this document.
      this.hold(id, text);
      return;
    }
    // Analysed first: a text the analysis cannot take leaves the index as it was.
    const analysed = indexTerms(text, this.analysis, labelWords);
    const parts = passages.map((passage) => indexTerms(passage, this.analysis, labelWords));
    if (this.numberOf.has(id)) this.delete(id);
    // With passages, the terms the document holds so far: each counts once in `holders`.
    const held = parts.length > 0 ? new Set<string>() : undefined;
    this.numberOf.set(id, this.addDocument(id, analysed, held));
    this.totalLength += analysed.length;
    this.hold(id, text);
    if (parts.length > 0) {
      const docs = parts.map((terms) => this.addDocument(id, terms, held));
      this.passages.set(id, { docs, texts: [...passages] });
      this.passageCount += docs.length;
    }
  }

  /** The passages document `id` was indexed with (see `set`; empty when it has none). */
  passagesOf(id: string): readonly string[] {
    return this.passages.get(id)?.texts ?? [];
  }

  /**
   * Adds the postings of a document's text or of one of its passages, under `id`, and returns its
   * number. A term counts in `holders` unless `held` (the terms of the document's parts added
   * before, when it has passages) has it already.
   */
  private addDocument(id: string, { terms, length }: IndexTerms, held: Set<string> | undefined): number {
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    const doc = this.ids.length;
    this.ids.push(id);
    for (const [term, freq] of counts) {
      let posting = this.postings.get(term);
      if (!posting) {
        posting = { docs: new Uint32Array(4), freqs: new Uint32Array(4), length: 0, df: 0, holders: 0, bounds: undefined };
        this.postings.set(term, posting);
        this.newTerms.push(term);
      }
      if (posting.length === posting.docs.length) grow(posting);
      posting.docs[posting.length] = doc;
      posting.freqs[posting.length] = freq;
      posting.length += 1;
      posting.df += 1;
      if (held === undefined) posting.holders += 1;
      else if (!held.has(term)) {
        held.add(term);
        posting.holders += 1;
      }
    }
    this.lengths.push(length);
    this.liveCount += 1;
    return doc;
  }

  /** Takes one document's text or passage out of the postings' counts and marks its number deleted; `held` as in `addDocument`. */
  private removeDocument(doc: number, text: string, held: Set<string> | undefined): void {
    for (const term of new Set(indexTerms(text, this.analysis).terms)) {
      const posting = this.postings.get(term)!;
      posting.df -= 1;
      if (held === undefined) posting.holders -= 1;
      else if (!held.has(term)) {
        held.add(term);
        posting.holders -= 1;
      }
    }
    this.ids[doc] = undefined;
    this.liveCount -= 1;
  }

  /** Throws what `set` would throw for `text`, indexing nothing: a store checks a record before writing it. */
  check(text: string): void {
    indexTerms(text, this.analysis);
  }

  /** Adds many documents at once (with their passages, see `set`). */
  setAll(documents: Iterable<{ id: string; text: string; passages?: readonly string[]; labelWords?: number }>): void {
    for (const { id, text, passages, labelWords } of documents) this.set(id, text, passages, labelWords);
  }

  delete(id: string): boolean {
    const doc = this.numberOf.get(id);
    if (doc === undefined) return false;
    const passages = this.passages.get(id);
    const held = passages ? new Set<string>() : undefined;
    this.removeDocument(doc, this.textOf(id)!, held);
    this.totalLength -= this.lengths[doc]!;
    if (passages) {
      passages.docs.forEach((part, n) => this.removeDocument(part, passages.texts[n]!, held));
      this.passages.delete(id);
      this.passageCount -= passages.docs.length;
    }
    this.numberOf.delete(id);
    this.texts.delete(id);
    if (this.ids.length > 1024 && this.liveCount < this.ids.length / 2) this.compact();
    return true;
  }

  clear(): void {
    this.numberOf.clear();
    this.texts.clear();
    this.passages.clear();
    this.passageCount = 0;
    this.importedText = undefined;
    this.ids = [];
    this.lengths = [];
    this.postings = new Map();
    this.vocabulary = [];
    this.newTerms = [];
    this.liveCount = 0;
    this.totalLength = 0;
  }

  search(query: string, options: Bm25SearchOptions = {}): Bm25Hit[] {
    let words = queryWords(query, options.stems === false ? 'exact' : this.analysis);
    if (options.synonyms && options.stems !== false) words = expandWithSynonyms(words, options.synonyms, this.analysis);
    if (options.maxTerms !== undefined) words = this.rarest(words, options.maxTerms, options.maxDocumentShare);
    if (words.length === 0 || this.numberOf.size === 0) return [];
    this.reserveScratch();
    const averageLength = this.totalLength / this.numberOf.size || 1;
    const weighted = this.weigh(words, options.prefix !== false);
    const terms: Array<{ posting: Posting; factor: number }> = [];
    for (const [term, weight] of weighted) {
      const posting = this.postings.get(term)!;
      if (posting.holders === 0) continue;
      terms.push({ posting, factor: weight * bm25Idf(this.numberOf.size, posting.holders) });
    }
    if (options.limit !== undefined && (options.prune ?? this.pruningPays(terms))) {
      const hits = this.searchTop(terms, options.limit, averageLength, options.filter);
      if (hits !== undefined) return hits;
    }

    const scores = this.scores;
    const touched = this.touched;
    const ids = this.ids;
    const lengths = this.lengths;
    let count = 0;
    for (const { posting, factor } of terms) {
      const { docs, freqs, length } = posting;
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (ids[doc] === undefined) continue;
        if (scores[doc] === 0) touched[count++] = doc;
        scores[doc]! += termScore(factor, freqs[i]!, lengths[doc]!, averageLength);
      }
    }
    const scored = touched.subarray(0, count);
    const hits = this.topHits(scored, options.limit ?? count, options.filter);
    for (let i = 0; i < count; i++) scores[touched[i]!] = 0;
    return hits;
  }

  /**
   * Whether a search with a limit should prune (SPEC M3, B12). Pruning costs per range of
   * documents and per term (each range's bounds, each term's place in it), whatever it skips;
   * scoring every posting costs per posting. A term with few postings has no bounds per range,
   * so its bound counts in every range it has a posting in, and a query of many such terms can
   * skip few ranges. Stems and prefix expansions make a natural question 15–35 terms, most of
   * them short, so it would pay for every range and term and still read most postings (at 100k
   * entries, LoCoMo's questions: p99 7.8 ms pruned, 0.6 ms scoring every posting; the store
   * bench's few-term queries over long postings: 1.2 ms pruned, 6 ms not). So a search prunes
   * only when its terms hold more postings than it has ranges times terms
   * (docs/benchmarks.md, "The search tail on natural questions").
   */
  private pruningPays(terms: ReadonlyArray<{ posting: Posting }>): boolean {
    let postings = 0;
    for (const { posting } of terms) postings += posting.df;
    return postings > ((this.ids.length >> RANGE_SHIFT) + 1) * terms.length;
  }

  /**
   * A search with a limit: the same hits and scores as scoring every posting, reading fewer (see
   * `PrunedTopK`). With a filter, the best `max(4 × limit, 32)` documents are taken regardless of
   * it and then filtered in order, which calls the filter a few times only (and whichever way
   * documents are numbered); undefined when fewer than `limit` of them pass, and there were more,
   * for the caller to score every posting instead. While the index holds passages, a document's
   * best hit stands for it and its other hits are passed over the same way.
   */
  private searchTop(
    terms: ReadonlyArray<{ posting: Posting; factor: number }>,
    limit: number,
    averageLength: number,
    filter?: (id: string) => boolean,
  ): Bm25Hit[] | undefined {
    updateReference(this.reference, averageLength);
    const wanted = Math.min(Math.floor(limit), this.numberOf.size);
    if (!(wanted >= 1)) return [];
    const distinct = this.passageCount > 0;
    const window = filter || distinct ? Math.max(wanted * 4, 32) : wanted;
    const topK = this.topK;
    topK.begin(this.ids, this.lengths, averageLength, impactScale(this.reference, averageLength), this.scores, this.touched);
    for (const { posting, factor } of terms)
      topK.addTerm(posting, factor, rangeBounds(posting, this.lengths, this.reference, this.ids.length));
    const candidates = topK.top(window);
    const hits: Bm25Hit[] = [];
    const seen = distinct ? new Set<string>() : undefined;
    for (const { doc, score } of candidates) {
      const id = this.ids[doc]!;
      if (seen) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      if (filter && !filter(id)) continue;
      hits.push({ id, score });
      if (hits.length === wanted) return hits;
    }
    return candidates.length < window ? hits : undefined;
  }

  /**
   * The `count` words found in the fewest live documents, without those in more than
   * `maxShare` of them unless fewer than three would be left (words not in the index are dropped).
   */
  private rarest(words: readonly QueryWord[], count: number, maxShare = 1): QueryWord[] {
    const kept = new Set(
      rarestTerms(
        words.map(({ word }) => ({ term: word, df: this.postings.get(word)?.holders ?? 0 })),
        count,
        this.numberOf.size,
        maxShare,
      ),
    );
    return words.filter(({ word }) => kept.has(word));
  }

  /** The index's state as plain arrays, live documents only (for a persisted snapshot). */
  exportState(): Bm25IndexState {
    if (this.newTerms.length > 0) this.mergeNewTerms();
    const renumber = new Int32Array(this.ids.length).fill(-1);
    const isPassage = new Uint8Array(this.ids.length);
    for (const { docs } of this.passages.values()) for (const doc of docs) isPassage[doc] = 1;
    const ids: string[] = [];
    const lengths: number[] = [];
    const passage: number[] = [];
    for (let doc = 0; doc < this.ids.length; doc++) {
      const id = this.ids[doc];
      if (id === undefined) continue;
      renumber[doc] = ids.length;
      ids.push(id);
      lengths.push(this.lengths[doc]!);
      passage.push(isPassage[doc]!);
    }
    let total = 0;
    for (const term of this.vocabulary) total += this.postings.get(term)!.df;
    const vocabulary: string[] = [];
    const offsets: number[] = [0];
    const docs = new Uint32Array(total);
    const freqs = new Uint32Array(total);
    let at = 0;
    for (const term of this.vocabulary) {
      const posting = this.postings.get(term)!;
      if (posting.df === 0) continue;
      for (let i = 0; i < posting.length; i++) {
        const doc = renumber[posting.docs[i]!]!;
        if (doc < 0) continue;
        docs[at] = doc;
        freqs[at] = posting.freqs[i]!;
        at += 1;
      }
      vocabulary.push(term);
      offsets.push(at);
    }
    return {
      ids,
      passage: Uint8Array.from(passage),
      lengths: Uint32Array.from(lengths),
      vocabulary,
      offsets: Uint32Array.from(offsets),
      docs,
      freqs,
    };
  }

  /**
   * Replaces the contents with a state from `exportState`. `textOf(id)` must give the text each
   * document had when the state was exported, for as long as the index lives (it is asked when a
   * document is replaced or deleted, instead of holding every text), and `passagesOf(id)` its
   * passages (asked once here, for the documents the state lists passages of; they are held); the
   * state is trusted to match those texts. Throws on a state that is not well formed, or whose
   * passages `passagesOf` does not give as many of, leaving the index empty.
   */
  importState(state: Bm25IndexState, textOf: (id: string) => string, passagesOf: (id: string) => readonly string[] = () => []): void {
    this.clear();
    const n = state.ids.length;
    const terms = state.vocabulary.length;
    if (
      state.lengths.length !== n ||
      state.passage.length !== n ||
      state.offsets.length !== terms + 1 ||
      state.offsets[terms] !== state.docs.length ||
      state.freqs.length !== state.docs.length
    ) {
      throw new Error('the index state is not well formed');
    }
    const passageDocs = new Map<string, number[]>();
    for (let doc = 0; doc < n; doc++) {
      const id = state.ids[doc]!;
      if (state.passage[doc] === 1) {
        passageDocs.set(id, [...(passageDocs.get(id) ?? []), doc]);
      } else if (this.numberOf.has(id)) {
        this.clear();
        throw new Error(`the index state lists ${id} twice`);
      } else {
        this.numberOf.set(id, doc);
      }
      this.ids.push(id);
      this.lengths.push(state.lengths[doc]!);
      if (state.passage[doc] !== 1) this.totalLength += state.lengths[doc]!;
    }
    this.liveCount = n;
    for (const [id, docs] of passageDocs) {
      const texts = this.numberOf.has(id) ? passagesOf(id) : [];
      if (texts.length !== docs.length) {
        this.clear();
        throw new Error(`the index state's passages of ${id} are not those given`);
      }
      this.passages.set(id, { docs, texts: [...texts] });
      this.passageCount += docs.length;
    }
    // A term's holders: the documents whose text or passages hold it, each once (see `set`).
    const withPassages = this.passageCount > 0;
    const holderOf = new Int32Array(withPassages ? n : 0);
    for (let doc = 0; doc < holderOf.length; doc++) holderOf[doc] = state.passage[doc] === 1 ? this.numberOf.get(state.ids[doc]!)! : doc;
    const lastTerm = new Int32Array(holderOf.length).fill(-1);
    for (let t = 0; t < terms; t++) {
      const from = state.offsets[t]!;
      const to = state.offsets[t + 1]!;
      const term = state.vocabulary[t]!;
      if (to <= from || (t > 0 && state.vocabulary[t - 1]! >= term) || state.docs[to - 1]! >= n || !increasing(state.docs, from, to)) {
        this.clear();
        throw new Error('the index state is not well formed');
      }
      const length = to - from;
      let holders = length;
      if (withPassages) {
        holders = 0;
        for (let p = from; p < to; p++) {
          const holder = holderOf[state.docs[p]!]!;
          if (lastTerm[holder] === t) continue;
          lastTerm[holder] = t;
          holders += 1;
        }
      }
      this.postings.set(term, {
        docs: state.docs.subarray(from, to),
        freqs: state.freqs.subarray(from, to),
        length,
        df: length,
        holders,
        bounds: undefined,
      });
    }
    this.vocabulary = [...state.vocabulary];
    this.importedText = textOf;
    this.prepareForSearch();
  }

  /**
   * Does now what the first searches after an import would otherwise do, each for its own terms:
   * size the scratch buffers and compute the impact bounds of the terms with the most postings
   * (a few ms each for the first queries after an import). Then warms the search up.
   */
  private prepareForSearch(): void {
    this.reserveScratch();
    updateReference(this.reference, this.totalLength / this.numberOf.size || 1);
    for (const posting of this.postings.values()) {
      if (hasRangeBounds(posting, this.ids.length)) rangeBounds(posting, this.lengths, this.reference, this.ids.length);
    }
    this.warmUp();
  }

  /**
   * Runs `WARM_UP_SEARCHES` searches (pruned, and every third one also scoring every posting, the
   * two ways a search may go) for the first words of documents spread over the index and
   * drops their hits, so that V8 has compiled the search's loops by the time the first real query
   * comes: a process's first queries would otherwise run them unoptimised while they are compiled,
   * at several times the cost (5–11 ms against 1–2 ms at 100k documents). Leaves nothing behind
   * that a search would see (the scratch buffers are zeroed after each search). Costs a few tens
   * of ms at 100k documents, well below a millisecond on a small index.
   */
  private warmUp(): void {
    const documents = this.ids.length;
    for (let search = 0; search < WARM_UP_SEARCHES; search++) {
      const id = this.ids[Math.floor(((search + 0.5) * documents) / WARM_UP_SEARCHES)];
      const text = id === undefined ? undefined : this.textOf(id);
      if (text === undefined) continue;
      const query = text.split(/\s+/, WARM_UP_QUERY_WORDS).join(' ');
      // Both ways a search with a limit may go (see `pruningPays`).
      this.search(query, { limit: WARM_UP_LIMIT, prune: true });
      if (search % 3 === 0) this.search(query, { limit: WARM_UP_LIMIT, prune: false });
    }
  }

  /** Sizes the scratch buffers of a search for every document number in use. */
  private reserveScratch(): void {
    if (this.scores.length >= this.ids.length) return;
    const capacity = Math.max(this.ids.length, this.scores.length * 2);
    this.scores = new Float64Array(capacity);
    this.touched = new Uint32Array(capacity);
  }

  /** The indexed text of a document in the index. */
  private textOf(id: string): string | undefined {
    const text = this.texts.get(id);
    if (text !== undefined || !this.numberOf.has(id)) return text;
    return this.options.textOf ? this.options.textOf(id) : this.importedText?.(id);
  }

  /** Keeps a document's text, unless the caller gives texts back (`textOf`). */
  private hold(id: string, text: string): void {
    if (this.options.textOf) this.texts.delete(id);
    else this.texts.set(id, text);
  }

  /** The weight of each term the query words match (see `weighQueryTerms`), with or without prefixes. */
  private weigh(words: readonly QueryWord[], prefix: boolean): Map<string, number> {
    if (!prefix)
      return weighQueryTerms(
        words,
        (term) => this.postings.has(term),
        () => [],
      );
    if (this.newTerms.length > 0) this.mergeNewTerms();
    return weighQueryTerms(
      words,
      (term) => this.postings.has(term),
      (term) => {
        const found: string[] = [];
        for (let i = lowerBound(this.vocabulary, term); i < this.vocabulary.length && found.length < PREFIX_MAX_EXPANSIONS; i++) {
          const candidate = this.vocabulary[i]!;
          if (!candidate.startsWith(term)) break;
          if (candidate !== term) found.push(candidate);
        }
        return found;
      },
    );
  }

  /**
   * The best `limit` documents that pass `filter` (each once, by its best passage while there are
   * passages). Looks at the highest-scoring candidates first and widens only when the filter or
   * the passages leave too few, so a filter costs little.
   */
  private topHits(touched: Uint32Array, limit: number, filter?: (id: string) => boolean): Bm25Hit[] {
    const distinct = this.passageCount > 0;
    let window = filter || distinct ? Math.max(limit * 4, 32) : limit;
    for (;;) {
      const candidates = topK(touched, Math.min(window, touched.length), this.scores);
      const hits: Bm25Hit[] = [];
      const seen = distinct ? new Set<string>() : undefined;
      for (const doc of candidates) {
        const id = this.ids[doc]!;
        if (seen) {
          if (seen.has(id)) continue;
          seen.add(id);
        }
        if (filter && !filter(id)) continue;
        hits.push({ id, score: this.scores[doc]! });
        if (hits.length >= limit) return hits;
      }
      if (window >= touched.length) return hits;
      window *= 8;
    }
  }

  private mergeNewTerms(): void {
    const added = this.newTerms.sort();
    const merged: string[] = new Array(this.vocabulary.length + added.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < this.vocabulary.length || j < added.length) {
      if (j >= added.length || (i < this.vocabulary.length && this.vocabulary[i]! < added[j]!)) merged[k++] = this.vocabulary[i++]!;
      else merged[k++] = added[j++]!;
    }
    this.vocabulary = merged;
    this.newTerms = [];
  }

  /** Renumbers documents without the deleted ones, once they outnumber the live ones. */
  private compact(): void {
    const live: Array<[string, string, readonly string[] | undefined]> = [];
    for (const id of this.numberOf.keys()) live.push([id, this.textOf(id)!, this.passages.get(id)?.texts]);
    this.clear();
    for (const [id, text, passages] of live) this.set(id, text, passages);
  }
}

/** Index of the first element >= value in a sorted array. */
function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Whether `values[from…to)` is strictly increasing (a term's postings, as searches read them). */
function increasing(values: Uint32Array, from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) if (values[i - 1]! >= values[i]!) return false;
  return true;
}

/** Doubles a posting's capacity. */
function grow(posting: Posting): void {
  const capacity = Math.max(4, posting.docs.length * 2);
  const docs = new Uint32Array(capacity);
  const freqs = new Uint32Array(capacity);
  docs.set(posting.docs.subarray(0, posting.length));
  freqs.set(posting.freqs.subarray(0, posting.length));
  posting.docs = docs;
  posting.freqs = freqs;
}

/** The `k` documents with the highest scores, best first (ties: lower number first), via a min-heap. */
function topK(docs: Uint32Array, k: number, scores: Float64Array): Uint32Array {
  const heap = new Uint32Array(k);
  if (k === 0) return heap;
  let size = 0;
  const worse = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  for (let n = 0; n < docs.length; n++) {
    const doc = docs[n]!;
    if (size < k) {
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(doc, heap[parent]!)) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = doc;
    } else if (worse(heap[0]!, doc)) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= size) break;
        const right = left + 1;
        const child = right < size && worse(heap[right]!, heap[left]!) ? right : left;
        if (!worse(heap[child]!, doc)) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = doc;
    }
  }
  return heap.subarray(0, size).sort((a, b) => scores[b]! - scores[a]! || a - b);
}

/** Whether two lists of passages are the same texts in the same order. */
function samePassages(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((text, n) => text === b[n]);
}
