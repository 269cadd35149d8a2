import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFakeEmbedder } from '../testing';
import { hybridRecallOptionsShape, resolveHybridRecall } from './hybrid-recall-options';

describe('hybrid recall options (SPEC M4)', () => {
  const embedder = createFakeEmbedder();

  it('fills in the defaults for a store with an embedder, and is undefined without one', () => {
    expect(resolveHybridRecall({ embedder })).toEqual({ embedder, minSimilarity: 0.5, queryEmbeddingTimeoutMs: 2000 });
    expect(resolveHybridRecall({ embedder, minSimilarity: 0, queryEmbeddingTimeoutMs: 50 })).toEqual({
      embedder,
      minSimilarity: 0,
      queryEmbeddingTimeoutMs: 50,
    });
    expect(resolveHybridRecall({ minSimilarity: 0.7 })).toBeUndefined();
  });

  it('takes an IEmbedder and refuses an object without a modelId or an embed method', () => {
    const schema = z.object(hybridRecallOptionsShape);
    expect(schema.safeParse({ embedder, minSimilarity: 1, queryEmbeddingTimeoutMs: 1 }).success).toBe(true);
    for (const bad of [{ embed: async () => [] }, { modelId: 'm' }, null]) {
      const parsed = schema.safeParse({ embedder: bad });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/must be an IEmbedder/);
    }
    expect(schema.safeParse({ minSimilarity: 1.5 }).success).toBe(false);
    expect(schema.safeParse({ queryEmbeddingTimeoutMs: 0 }).success).toBe(false);
  });
});
