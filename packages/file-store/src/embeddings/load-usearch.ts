import { createRequire } from 'node:module';
import type { ILogger } from '@reverie/core';

/** The part of usearch's API (`usearch` on npm, a native addon with prebuilt binaries) the vector index uses. */
export interface UsearchModule {
  Index: new (config: {
    dimensions: number;
    metric: string;
    quantization: string;
    connectivity: number;
    expansion_add: number;
    expansion_search: number;
    multi: boolean;
  }) => UsearchIndex;
}

export interface UsearchIndex {
  add(keys: BigUint64Array, vectors: Float32Array, threads?: number): void;
  search(vector: Float32Array, k: number, threads: number): { keys: BigUint64Array; distances: Float32Array };
  size(): number;
  save(path: string): void;
  load(path: string): void;
}

/**
 * `require` from this file, in both builds (the CJS build reads `import.meta.url` as `__filename`,
 * tsup.config.ts; never a global `__filename`, which `node -e` defines as `[eval]`): usearch is
 * CommonJS and loads its binary synchronously.
 */
const requireHere = createRequire(import.meta.url);

let loaded: { module: UsearchModule | undefined; error?: string; path?: string } | undefined;
let warned = false;

/**
 * usearch, the approximate-nearest-neighbour index of the vector side (SPEC M4), or undefined
 * when it cannot be loaded (not installed: it is an optional dependency; no binary for this
 * platform and no compiler when it was installed). Then hybrid search compares the query with
 * every vector, as it always did, and the first store to ask says so once per process.
 */
export function loadUsearch(logger: ILogger, require: (id: string) => unknown = requireHere): UsearchModule | undefined {
  if (require !== requireHere) return tryLoad(require, logger).module;
  loaded ??= tryLoad(require, logger);
  return loaded.module;
}

/** Where usearch's entry file is, for a worker thread to `require` (undefined when it cannot load). */
export function usearchEntry(): string | undefined {
  if (!loaded?.module) return undefined;
  loaded.path ??= requireHere.resolve('usearch');
  return loaded.path;
}

function tryLoad(require: (id: string) => unknown, logger: ILogger): { module: UsearchModule | undefined; error?: string } {
  try {
    const module = require('usearch') as UsearchModule;
    if (typeof module?.Index !== 'function') throw new Error('usearch has no Index class');
    return { module };
  } catch (error) {
    if (!warned || require !== requireHere) {
      warned = true;
      logger.warn(
        'The vector index (the optional dependency usearch) could not be loaded, so hybrid search compares the query with every vector: correct, but slower past some thousands of entries. Install usearch beside @reverie/file-store (npm install usearch) to search vectors through an index.',
        { error: String(error) },
      );
    }
    return { module: undefined, error: String(error) };
  }
}
