import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MockEmbeddingModelV3 } from 'ai/test';
import { aiSdkEmbedder } from './ai-sdk-embedder';
import { contentHash, decodeEmbedding, encodeEmbedding } from './embedding-file';

describe('embedding files', () => {
  it('round-trip any float32 vector with its header', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ noNaN: true }), { maxLength: 300 }), fc.string(), (vector, modelId) => {
        const bytes = encodeEmbedding({ modelId, contentHash: contentHash('x') }, vector);
        const decoded = decodeEmbedding(bytes);
        expect(decoded?.header).toEqual({ modelId, contentHash: contentHash('x'), dimensions: vector.length });
        expect([...decoded!.vector]).toEqual(vector.map((v) => Math.fround(v)));
      }),
    );
  });

  it('refuse torn or foreign bytes', () => {
    const bytes = encodeEmbedding({ modelId: 'm', contentHash: 'h' }, [1, 2, 3]);
    expect(decodeEmbedding(bytes.slice(0, bytes.length - 2))).toBeUndefined();
    expect(decodeEmbedding(new TextEncoder().encode('{"not":"an embedding"}'))).toBeUndefined();
    expect(decodeEmbedding(new Uint8Array())).toBeUndefined();
  });
});

describe('aiSdkEmbedder', () => {
  it('embeds through the AI SDK, in order, with the model id', async () => {
    const model = new MockEmbeddingModelV3({
      provider: 'mock',
      modelId: 'embed-1',
      doEmbed: async ({ values }) => ({ embeddings: values.map((value) => [value.length, 1]), warnings: [] }),
    });
    const embedder = aiSdkEmbedder(model, { maxInputChars: 5 });
    expect(embedder.modelId).toBe('mock:embed-1');
    expect(await embedder.embed(['ab', 'a much longer text'])).toEqual([
      [2, 1],
      [5, 1],
    ]);
    expect(await embedder.embed([])).toEqual([]);
  });
});
