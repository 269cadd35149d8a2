import {
  type IEmbedder,
  type ILongTermMemory,
  type ISkillStore,
  invalidOptions,
  type MemoryEntry,
  memoryDocumentText,
  parseOptions,
} from '@reverie/core';
import { z } from 'zod';
import { isSystemCategory } from '@reverie/core/internal';
import { parseForgottenEntry } from '../memory/forgetting/forgotten-facts';
import { EXPORT_FORMAT_VERSION, EXPORT_HEADER_TYPE, type ExportRecord } from './export-format';

/** What an export reads. */
export interface ExportSources {
  memory: ILongTermMemory | undefined;
  skills: ISkillStore | undefined;
  /** The instance's embedder, for `vectors`. */
  embedder: IEmbedder | undefined;
  scope: string | undefined;
  now: Date;
}

/** SPEC B15: the options of `reverie.export`. */
export const exportOptionsSchema = z
  .object({
    /** Also write each memory entry's vector, made by the instance's embedder from the text the stores embed, tagged with its model id. */
    vectors: z.boolean().default(false),
  })
  .strict();
export type ExportOptions = z.input<typeof exportOptionsSchema>;

/** Entries embedded per call when vectors are exported. */
const EMBED_BATCH = 64;

/**
 * SPEC B15: an instance's memory as the lines of a Reverie export (docs/export.md), each ending
 * with a newline: the header, every memory entry (oldest first, with validity and lineage; Reverie's
 * own `_system/` entries left out), the tombstones forgets left, with `vectors` each entry's vector
 * tagged with the embedding model's id, every skill, and the end line with the count. INVALID_OPTIONS
 * for a bad option, or `vectors` without an embedder.
 */
export async function* exportLines(sources: ExportSources, options: ExportOptions = {}): AsyncGenerator<string> {
  const { memory, skills, embedder, scope, now } = sources;
  const { vectors } = parseOptions(exportOptionsSchema, options ?? {}, 'export options');
  if (vectors && !embedder) {
    throw invalidOptions('export({ vectors: true }) needs an embedder: pass embedder or embeddingModel to createReverie.', [
      { path: 'vectors', message: 'no embedder is configured' },
    ]);
  }
  yield line({ type: EXPORT_HEADER_TYPE, version: EXPORT_FORMAT_VERSION, exportedAt: now.toISOString(), ...(scope ? { scope } : {}) });
  let records = 0;
  const emit = (record: ExportRecord) => {
    records++;
    return line(record);
  };
  const exported: MemoryEntry[] = [];
  for (const entry of (await memory?.list()) ?? []) {
    if (!isSystemCategory(entry.category)) {
      exported.push(entry);
      yield emit({ type: 'memory', entry });
    } else {
      const record = parseForgottenEntry(entry);
      if (record) yield emit({ type: 'tombstone', id: entry.id, createdAt: entry.createdAt, record });
    }
  }
  if (vectors && embedder) {
    for (let start = 0; start < exported.length; start += EMBED_BATCH) {
      const batch = exported.slice(start, start + EMBED_BATCH);
      const embedded = await embedder.embed(batch.map((entry) => memoryDocumentText(entry)));
      for (const [index, entry] of batch.entries()) {
        yield emit({ type: 'vector', id: entry.id, model: embedder.modelId, vector: embedded[index] ?? [] });
      }
    }
  }
  for (const skill of (await skills?.list()) ?? []) yield emit({ type: 'skill', skill });
  yield line({ type: 'end', records });
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
