import { idSchema, memoryEntrySchema, skillSchema, timestampSchema } from '@reverie/core';
import { z } from 'zod';
import { forgottenRecordSchema } from '../memory/forgetting/forgotten-facts';

/** The version of the export format this release writes and reads (docs/export.md). */
export const EXPORT_FORMAT_VERSION = 1;
/** The most dimensions a vector of an export may have. */
export const MAX_VECTOR_DIMENSIONS = 16_384;
/** The `type` of an export's first line. */
export const EXPORT_HEADER_TYPE = 'reverie-export';

/** SPEC B15: the first line of an export. */
export const exportHeaderSchema = z
  .object({
    type: z.literal(EXPORT_HEADER_TYPE),
    version: z.number().int(),
    exportedAt: timestampSchema,
    scope: z.string().min(1).max(200).optional(),
  })
  .strict();

/** One record of an export: a memory entry (validity and lineage included), its vector, a skill, or a tombstone. */
export const exportRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('memory'), entry: memoryEntrySchema }).strict(),
  z.object({ type: z.literal('skill'), skill: skillSchema }).strict(),
  /** The vector of a memory entry of the file (`exportLines` with `vectors`), tagged with the embedding model that made it. */
  z
    .object({
      type: z.literal('vector'),
      id: idSchema,
      model: z.string().min(1).max(200),
      vector: z.array(z.number().refine(Number.isFinite, 'must be a finite number')).min(1).max(MAX_VECTOR_DIMENSIONS),
    })
    .strict(),
  /** What a forget left (SPEC B14): keyed hashes, never text. */
  z.object({ type: z.literal('tombstone'), id: idSchema, createdAt: timestampSchema, record: forgottenRecordSchema }).strict(),
]);
export type ExportRecord = z.infer<typeof exportRecordSchema>;

/** The last line: how many records came before it, so that a cut-short file is recognised. */
export const exportEndSchema = z.object({ type: z.literal('end'), records: z.number().int().min(0) }).strict();

export type ExportHeader = z.infer<typeof exportHeaderSchema>;
