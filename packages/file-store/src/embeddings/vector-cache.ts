import { readFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ILogger } from '@reverie/core';
import { writeFileAtomic } from '../fs/atomic-write';
import { decodeSnapshot, encodeSnapshot } from '../fs/snapshot-file';
import { decodeEmbedding } from './embedding-file';
import { VectorLog } from './vector-log';

/** Every cached vector in one file, as of the last close (a copy of what the log and older files held). */
const MATRIX = '.matrix.bin';
const MATRIX_FORMAT = 'embeddings/1';
/** The vectors computed since the matrix was written, appended in batches. */
const LOG = '.vectors.log';

/** A vector and the hash of the text it was made from. */
export interface CachedVector {
  hash: string;
  vector: Float32Array;
}

/**
 * Where a store's vectors are kept on disk (SPEC M4), all of it a cache that is safe to delete:
 *
 * - `.matrix.bin`: every vector as of the last close, in one block (the snapshot container,
 *   checksummed), with each one's document id and text hash and the model's id;
 * - `.vectors.log`: the vectors computed since, appended in batches (`VectorLog`);
 * - `<id>.bin`: one file per vector, as Reverie wrote them before the log; read, never written,
 *   and removed once the matrix holds their vectors.
 *
 * Every vector is read with the hash of the text it was computed from and the model that
 * computed it, and is used only for a document whose text has that hash now, by that model.
 */
export class VectorCache {
  private readonly log: VectorLog;

  constructor(
    private readonly dir: string,
    private readonly modelId: string,
    private readonly logger: ILogger,
  ) {
    this.log = new VectorLog(join(dir, LOG));
  }

  /**
   * The vectors of this model in the matrix and the log, by document (the log's later records
   * over the matrix and over its earlier ones), and the names of the per-entry files present.
   */
  async read(): Promise<{ vectors: Map<string, CachedVector>; files: Set<string> }> {
    const vectors = this.readMatrix();
    for (const record of this.log.read()) {
      if (record.modelId === this.modelId) vectors.set(record.id, { hash: record.hash, vector: record.vector });
    }
    const files = new Set(
      (await readdir(this.dir).catch(() => [] as string[]))
        .filter((name) => name.endsWith('.bin') && !name.startsWith('.'))
        .map((name) => name.slice(0, -'.bin'.length)),
    );
    return { vectors, files };
  }

  /** The vector of a per-entry file (`<stem>.bin`) if it was made from the text of `hash` by this model. */
  async readFile(stem: string, hash: string): Promise<CachedVector | undefined> {
    const decoded = decodeEmbedding(await readFile(join(this.dir, `${stem}.bin`)).catch(() => new Uint8Array()));
    if (!decoded || decoded.header.contentHash !== hash || decoded.header.modelId !== this.modelId) return undefined;
    return { hash, vector: decoded.vector };
  }

  /** Removes per-entry files (of documents gone, or once the matrix holds their vectors). */
  async removeFiles(stems: Iterable<string>): Promise<void> {
    for (const stem of stems) await rm(join(this.dir, `${stem}.bin`), { force: true });
  }

  /** Appends vectors to the log, in one write with whatever else is waiting; resolves once on disk. */
  append(vectors: ReadonlyArray<{ id: string; hash: string; vector: Float32Array }>): Promise<void> {
    return this.log.append(vectors.map(({ id, hash, vector }) => ({ id, hash, modelId: this.modelId, vector })));
  }

  /**
   * Writes `vectors` (those of the most common length) as the matrix, atomically, then empties
   * the log: a process killed in between leaves a matrix and a log that say the same. Returns
   * false (with a warning) when it could not.
   */
  async compact(vectors: ReadonlyMap<string, CachedVector>): Promise<boolean> {
    const lengths = new Map<number, number>();
    for (const { vector } of vectors.values()) lengths.set(vector.length, (lengths.get(vector.length) ?? 0) + 1);
    const dimensions = [...lengths].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
    const ids: string[] = [];
    const hashes: string[] = [];
    for (const [id, { hash, vector }] of vectors) {
      if (vector.length !== dimensions) continue;
      ids.push(id);
      hashes.push(hash);
    }
    const matrix = new Float32Array(ids.length * dimensions);
    ids.forEach((id, i) => matrix.set(vectors.get(id)!.vector, i * dimensions));
    try {
      await this.log.settled();
      await writeFileAtomic(
        join(this.dir, MATRIX),
        encodeSnapshot({
          version: MATRIX_FORMAT,
          sections: new Map([
            ['model', { kind: 'json', value: { modelId: this.modelId, dimensions } }],
            ['ids', { kind: 'json', value: ids }],
            ['hashes', { kind: 'json', value: hashes }],
            ['vectors', { kind: 'f32', value: matrix }],
          ]),
        }),
      );
      await this.log.reset();
      return true;
    } catch (error) {
      this.logger.warn('Could not write the embedding matrix; the next open reads the vectors from the log.', { error: String(error) });
      return false;
    }
  }

  /** Waits for the log's appends in flight. */
  settled(): Promise<void> {
    return this.log.settled();
  }

  /** The vectors in `.matrix.bin` made by this model, by id; empty when it is absent, torn or of another format. */
  private readMatrix(): Map<string, CachedVector> {
    const found = new Map<string, CachedVector>();
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(this.dir, MATRIX));
    } catch {
      return found;
    }
    const decoded = decodeSnapshot(bytes);
    if (!decoded || decoded.version !== MATRIX_FORMAT) return found;
    try {
      const json = (name: string): unknown => {
        const section = decoded.sections.get(name);
        return section?.kind === 'json' ? JSON.parse(section.text) : undefined;
      };
      const model = json('model') as { modelId?: unknown; dimensions?: unknown } | undefined;
      const ids = json('ids');
      const hashes = json('hashes');
      const vectors = decoded.sections.get('vectors');
      if (model?.modelId !== this.modelId || typeof model.dimensions !== 'number' || !Array.isArray(ids) || !Array.isArray(hashes))
        return found;
      const dimensions = model.dimensions;
      if (vectors?.kind !== 'f32' || hashes.length !== ids.length || vectors.value.length !== ids.length * dimensions) return found;
      ids.forEach((id: string, i) =>
        found.set(id, { hash: hashes[i] as string, vector: vectors.value.subarray(i * dimensions, (i + 1) * dimensions) }),
      );
    } catch {
      found.clear();
    }
    return found;
  }
}
