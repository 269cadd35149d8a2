import { ownValue } from '../lookup/lookup-table';
import type { IEmbedder } from '../interfaces/embedder';
import { tokenize } from '../search/stop-words';

export interface FakeEmbedderOptions {
  modelId?: string;
  dimensions?: number;
  /** Words that should land on the same vector, e.g. `{ automobile: 'car' }`. */
  synonyms?: Record<string, string>;
  /** Throw on every call (to test fallbacks). */
  fail?: boolean;
}

/** An `IEmbedder` that also counts what it was asked to embed. */
export interface FakeEmbedder extends IEmbedder {
  readonly calls: string[][];
  readonly embeddedTexts: number;
}

/**
 * A deterministic, offline stand-in for an embedding model: each (synonym-folded) term is hashed
 * to a dimension, so texts that share terms or synonyms are similar and others are not.
 */
export function createFakeEmbedder(options: FakeEmbedderOptions = {}): FakeEmbedder {
  const dimensions = options.dimensions ?? 64;
  const synonyms = options.synonyms ?? {};
  const calls: string[][] = [];
  const vectorOf = (text: string): number[] => {
    const vector = new Array<number>(dimensions).fill(0);
    for (const raw of tokenize(text)) {
      const term = ownValue(synonyms, raw) ?? raw;
      let hash = 2166136261;
      for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), 16777619);
      vector[(hash >>> 0) % dimensions]! += 1;
    }
    return vector;
  };
  return {
    modelId: options.modelId ?? 'fake-embedder-v1',
    calls,
    get embeddedTexts() {
      return calls.reduce((sum, call) => sum + call.length, 0);
    },
    async embed(texts: string[]) {
      calls.push([...texts]);
      if (options.fail) throw new Error('fake embedder configured to fail');
      return texts.map(vectorOf);
    },
  };
}
