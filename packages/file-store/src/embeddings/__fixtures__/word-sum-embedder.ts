import { type IEmbedder } from '@reverie/core';
import { tokenize } from '@reverie/core/internal';

/**
 * A deterministic embedder whose vectors have neighbourhoods, for tests: a text's vector is the
 * sum of its words' pseudo-random vectors (each seeded by the word), so texts sharing words are
 * near and similarities are seldom tied. The same in every process.
 */
export function wordSumEmbedder(dimensions = 24, modelId = `word-sum-${dimensions}`): IEmbedder & { embeddedTexts: number } {
  const words = new Map<string, Float32Array>();
  const vectorOf = (word: string): Float32Array => {
    let vector = words.get(word);
    if (vector) return vector;
    let state = 2166136261;
    for (let i = 0; i < word.length; i++) state = Math.imul(state ^ word.charCodeAt(i), 16777619);
    vector = new Float32Array(dimensions);
    for (let i = 0; i < dimensions; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      vector[i] = state / 2 ** 32 - 0.5;
    }
    words.set(word, vector);
    return vector;
  };
  const embedder = {
    modelId,
    embeddedTexts: 0,
    async embed(texts: string[]) {
      embedder.embeddedTexts += texts.length;
      return texts.map((text) => {
        const sum = new Array<number>(dimensions).fill(0);
        for (const word of tokenize(text)) {
          const vector = vectorOf(word);
          for (let i = 0; i < dimensions; i++) sum[i]! += vector[i]!;
        }
        return sum;
      });
    },
  };
  return embedder;
}
