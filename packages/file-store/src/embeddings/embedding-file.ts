import { createHash } from 'node:crypto';

/** What an embedding file says about the vector it holds. */
export interface EmbeddingHeader {
  modelId: string;
  /** sha256 of the embedded text, so a changed entry is re-embedded and an unchanged one never. */
  contentHash: string;
  dimensions: number;
}

const MAGIC = 'RVE1';

/** The hash that identifies the text a vector was computed from. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Encodes a vector as: "RVE1", a little-endian u32 header length, the JSON header, zero padding
 * to a multiple of 4 bytes, then the vector as little-endian float32.
 */
export function encodeEmbedding(header: Omit<EmbeddingHeader, 'dimensions'>, vector: ArrayLike<number>): Uint8Array {
  const json = Buffer.from(JSON.stringify({ ...header, dimensions: vector.length }), 'utf8');
  const headerEnd = 8 + json.length;
  const vectorStart = Math.ceil(headerEnd / 4) * 4;
  const bytes = Buffer.alloc(vectorStart + vector.length * 4);
  bytes.write(MAGIC, 0, 'ascii');
  bytes.writeUInt32LE(json.length, 4);
  json.copy(bytes, 8);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, vectorStart + i * 4);
  return bytes;
}

/** Decodes an embedding file; undefined when it is not one (torn, foreign, truncated). */
export function decodeEmbedding(bytes: Uint8Array): { header: EmbeddingHeader; vector: Float32Array } | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < 8 || buffer.toString('ascii', 0, 4) !== MAGIC) return undefined;
  const headerLength = buffer.readUInt32LE(4);
  if (8 + headerLength > buffer.length) return undefined;
  let header: EmbeddingHeader;
  try {
    header = JSON.parse(buffer.toString('utf8', 8, 8 + headerLength)) as EmbeddingHeader;
  } catch {
    return undefined;
  }
  if (typeof header.modelId !== 'string' || typeof header.contentHash !== 'string' || !Number.isInteger(header.dimensions)) {
    return undefined;
  }
  const vectorStart = Math.ceil((8 + headerLength) / 4) * 4;
  if (buffer.length !== vectorStart + header.dimensions * 4) return undefined;
  const vector = new Float32Array(header.dimensions);
  for (let i = 0; i < header.dimensions; i++) vector[i] = buffer.readFloatLE(vectorStart + i * 4);
  return { header, vector };
}
