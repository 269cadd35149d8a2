import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AnnSettings } from './ann-settings';

/**
 * The worker that builds a vector index (SPEC M4, B12), as plain CommonJS source run with
 * `eval`, so the same code runs from the TypeScript sources (tests), the ESM build and the CJS
 * build without a file of its own to find. It takes the vectors in slices (each transferred, not
 * copied), adds them with `threads` threads, and saves the index to `temporary`, fsyncs it and
 * renames it to `path`: a file at `path` is always whole.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const usearch = require(workerData.usearchEntry);
const { dimensions, connectivity, expansionAdd, expansionSearch, quantization, threads } = workerData;
const index = new usearch.Index({ dimensions, metric: 'cos', quantization, connectivity, expansion_add: expansionAdd, expansion_search: expansionSearch, multi: false });
parentPort.on('message', (message) => {
  try {
    if (message.kind === 'add') {
      if (message.count > 0) {
        const keys = new BigUint64Array(message.count);
        for (let i = 0; i < message.count; i++) keys[i] = BigInt(message.first + i);
        index.add(keys, new Float32Array(message.vectors, 0, message.count * dimensions), threads);
      }
      parentPort.postMessage({ kind: 'added' });
    } else if (message.kind === 'save') {
      index.save(message.temporary);
      const fd = fs.openSync(message.temporary, 'r+');
      try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
      fs.renameSync(message.temporary, message.path);
      parentPort.postMessage({ kind: 'saved', bytes: fs.statSync(message.path).size });
    }
  } catch (error) {
    parentPort.postMessage({ kind: 'failed', error: String(error && error.stack || error) });
  }
});
`;

/** Vectors sent to the worker per message: a slice of some MiB, so the copy is never whole. */
const SLICE = 4096;

export interface BuildRequest {
  usearchEntry: string;
  settings: AnnSettings;
  dimensions: number;
  /** The vectors, in key order: key k is `vectorAt(k)`. */
  count: number;
  vectorAt(key: number): Float32Array;
  /** Where the finished index goes, and the temporary file it is written to first. */
  path: string;
  temporary: string;
  signal: AbortSignal;
}

/**
 * Builds an index of `count` vectors in a worker thread, off the event loop, and saves it at
 * `path`; resolves with the file's size. Rejects when aborted (the worker is stopped) or when the
 * worker fails.
 */
export async function buildAnnIndex(request: BuildRequest): Promise<number> {
  const { settings, dimensions } = request;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      usearchEntry: request.usearchEntry,
      dimensions,
      connectivity: settings.connectivity,
      expansionAdd: settings.expansionAdd,
      expansionSearch: settings.expansionSearch,
      quantization: settings.quantization,
      threads: Math.min(4, Math.max(1, availableParallelism() - 1)),
    },
  });
  // A build runs while the process serves; it never keeps the process alive.
  worker.unref();
  let failure: Error | undefined;
  let exited = false;
  worker.on('error', (error) => {
    failure = error;
  });
  worker.on('exit', () => {
    exited = true;
  });
  const stopped = () =>
    failure ?? new Error(request.signal.aborted ? 'the vector index build was stopped' : 'the vector index worker exited');
  const abort = () => void worker.terminate();
  request.signal.addEventListener('abort', abort, { once: true });
  const reply = (message: object, transfer: ArrayBuffer[] = []) =>
    new Promise<{ kind: string; bytes?: number; error?: string }>((resolve, reject) => {
      // Stopped between two replies (its exit already told): nothing would answer.
      if (exited || request.signal.aborted) {
        reject(stopped());
        return;
      }
      const onMessage = (answer: { kind: string; bytes?: number; error?: string }) => {
        cleanUp();
        resolve(answer);
      };
      const onExit = () => {
        cleanUp();
        reject(stopped());
      };
      const cleanUp = () => {
        worker.off('message', onMessage);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('exit', onExit);
      worker.postMessage(message, transfer);
    });
  try {
    for (let first = 0; first < request.count; first += SLICE) {
      if (request.signal.aborted) throw new Error('the vector index build was stopped');
      const count = Math.min(SLICE, request.count - first);
      const slice = new Float32Array(count * dimensions);
      for (let i = 0; i < count; i++) slice.set(request.vectorAt(first + i), i * dimensions);
      const answer = await reply({ kind: 'add', first, count, vectors: slice.buffer }, [slice.buffer]);
      if (answer.kind !== 'added') throw new Error(answer.error ?? 'the vector index worker failed');
    }
    const saved = await reply({ kind: 'save', path: request.path, temporary: request.temporary });
    if (saved.kind !== 'saved' || saved.bytes === undefined) throw new Error(saved.error ?? 'the vector index worker failed');
    return saved.bytes;
  } finally {
    request.signal.removeEventListener('abort', abort);
    await worker.terminate();
  }
}
