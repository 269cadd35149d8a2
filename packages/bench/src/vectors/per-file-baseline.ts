import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type IEmbedder, type MemoryEntry, memoryDocumentText } from '@reverie/core';
import { writeFileAtomic } from '../../../file-store/src/fs/atomic-write';
import { contentHash, encodeEmbedding } from '../../../file-store/src/embeddings/embedding-file';

/**
 * The first embedding as the file store wrote it before the vector log (the baseline of
 * `bench:vectors`): batches of 16 texts, then each vector written as a file of its own
 * (`<id>.bin`: temporary file, fsync, rename, directory fsync), one after another, as
 * `EmbeddingIndex`'s worker did. Returns vectors per second over `entries`.
 */
export async function perFileIngestion(entries: readonly MemoryEntry[], embedder: IEmbedder, dir: string): Promise<number> {
  mkdirSync(dir, { recursive: true });
  const start = performance.now();
  for (let first = 0; first < entries.length; first += 16) {
    const batch = entries.slice(first, first + 16);
    const texts = batch.map((entry) => memoryDocumentText(entry));
    const vectors = await embedder.embed(texts);
    for (let i = 0; i < batch.length; i++) {
      await writeFileAtomic(
        join(dir, `${batch[i]!.id}.bin`),
        encodeEmbedding({ modelId: embedder.modelId, contentHash: contentHash(texts[i]!) }, vectors[i]!),
      );
    }
  }
  return entries.length / ((performance.now() - start) / 1000);
}
