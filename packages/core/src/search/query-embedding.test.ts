import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../logging/loggers';
import { embedQueryWithin, MAX_EMBEDDING_INPUT_CHARS } from './query-embedding';

describe('embedQueryWithin', () => {
  it("gives the model's vector for the query, cut to the longest input", async () => {
    const asked: string[][] = [];
    const embedder = { modelId: 'm', embed: async (texts: string[]) => (asked.push(texts), [[1, 2]]) };
    expect(await embedQueryWithin(embedder, 'x'.repeat(MAX_EMBEDDING_INPUT_CHARS + 5), 1000, new RecordingLogger())).toEqual([1, 2]);
    expect(asked[0]![0]).toHaveLength(MAX_EMBEDDING_INPUT_CHARS);
  });

  it('gives undefined and warns when the model fails, returns nothing, or is slower than the timeout (and aborts it)', async () => {
    const logger = new RecordingLogger();
    const failing = { modelId: 'm', embed: async () => Promise.reject(new Error('down')) };
    const empty = { modelId: 'm', embed: async () => [] };
    let aborted = false;
    const slow = {
      modelId: 'm',
      embed: (_texts: string[], options?: { signal?: AbortSignal }) =>
        new Promise<number[][]>((_, reject) =>
          options!.signal!.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          }),
        ),
    };
    expect(await embedQueryWithin(failing, 'q', 1000, logger)).toBeUndefined();
    expect(await embedQueryWithin(empty, 'q', 1000, logger)).toBeUndefined();
    expect(await embedQueryWithin(slow, 'q', 10, logger)).toBeUndefined();
    expect(aborted).toBe(true);
    expect(logger.records.filter((record) => record.level === 'warn' && /BM25 alone/.test(record.message))).toHaveLength(3);
  });
});
