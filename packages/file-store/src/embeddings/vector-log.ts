import { readFileSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { endianness } from 'node:os';
import { fsyncDirectory } from '../fs/atomic-write';

/** One vector as the log holds it: the document, the hash of its text, the model, the numbers. */
export interface LoggedVector {
  id: string;
  hash: string;
  modelId: string;
  vector: Float32Array;
}

/**
 * Marks the start of a record: "RVL1". A reader that meets a record it cannot take (a torn
 * append) looks for the next one from here.
 */
const MAGIC = 0x314c5652;
/** Magic, payload length, checksum. */
const RECORD_HEADER = 12;
/** Records per `writev` call: two pieces each, within the 1,024 pieces a call may take (IOV_MAX). */
const RECORDS_PER_WRITE = 512;

/**
 * The vectors computed since the last `.matrix.bin` (SPEC M4), appended in batches to one file
 * (`.vectors.log` in the vectors folder), so that writing a vector costs a share of one append
 * and one fsync per batch instead of a file, an fsync and a rename of its own.
 *
 * A record is the magic, its payload's length and a checksum of it, then the payload: a JSON
 * header (`{"id","hash","model","dims"}`) padded to 4 bytes and the vector as little-endian
 * float32. A process killed in the middle of an append leaves a torn record: a reader skips what
 * does not check out and takes the next whole record after it, so a torn record costs its
 * vectors (computed again at the next open), never a wrong one; and since appends are written
 * with `O_APPEND`, whole records at a time (one `writev` of up to `RECORDS_PER_WRITE` records),
 * records of two processes never interleave. The log is a cache like the matrix: deleting it
 * costs embeddings, nothing else.
 *
 * A record is written from two pieces, its header and the vector's own bytes (not copied): at
 * 1,536 dimensions the copies into one buffer per append, then one per group, and the
 * collections their hundreds of MiB called for, cost more than the rest of a first embedding.
 */
export class VectorLog {
  /** The pieces of the records waiting for the write in flight (group commit: one fsync for all of them). */
  private queued: Uint8Array[] = [];
  private writing: Promise<void> | undefined;
  private waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  private folderMade = false;

  constructor(readonly path: string) {}

  /** Appends `vectors`; resolves once they are on disk with every append made before. */
  append(vectors: readonly LoggedVector[]): Promise<void> {
    if (vectors.length === 0) return this.writing ?? Promise.resolve();
    for (const piece of encodeRecords(vectors)) this.queued.push(piece);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.writing ??= this.drain();
    return done;
  }

  /** Resolves once every append made so far is on disk (or failed). */
  async settled(): Promise<void> {
    while (this.writing) await this.writing.catch(() => undefined);
  }

  /** Every whole record in the log, oldest first (an absent log holds none). */
  read(): LoggedVector[] {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.path);
    } catch {
      return [];
    }
    return decodeRecords(bytes);
  }

  /**
   * Empties the log once its vectors are in the matrix: an empty file is renamed over it, so a
   * reader sees the whole old log or the empty one. Waits for appends in flight first.
   */
  async reset(): Promise<void> {
    await this.settled();
    const temporary = join(dirname(this.path), `.${basename(this.path)}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await open(temporary, 'w');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    await fsyncDirectory(dirname(this.path));
  }

  private async drain(): Promise<void> {
    try {
      while (this.queued.length > 0) {
        const pieces = this.queued;
        const waiters = this.waiters;
        this.queued = [];
        this.waiters = [];
        try {
          if (!this.folderMade) {
            await mkdir(dirname(this.path), { recursive: true });
            this.folderMade = true;
          }
          const handle = await open(this.path, 'a');
          try {
            // Whole records per call (two pieces each), at most as many pieces as one writev takes.
            for (let first = 0; first < pieces.length; first += RECORDS_PER_WRITE * 2) {
              const chunk = pieces.slice(first, first + RECORDS_PER_WRITE * 2);
              const expected = chunk.reduce((sum, piece) => sum + piece.byteLength, 0);
              const { bytesWritten } = await handle.writev(chunk);
              if (bytesWritten !== expected) throw new Error(`wrote ${bytesWritten} of ${expected} bytes to the vector log`);
            }
            await handle.datasync();
          } finally {
            await handle.close();
          }
          for (const waiter of waiters) waiter.resolve();
        } catch (error) {
          for (const waiter of waiters) waiter.reject(error);
        }
      }
    } finally {
      this.writing = undefined;
    }
  }
}

/** One record's bytes (see `VectorLog`). */
export function encodeRecord(vector: LoggedVector): Buffer {
  return Buffer.concat(encodeRecords([vector]));
}

/**
 * The records of `vectors` as pieces to write in order, two per record: its header (magic,
 * length, checksum, the JSON header padded) and its vector's bytes, a view of the vector itself.
 * The headers of one append share one buffer.
 */
export function encodeRecords(vectors: readonly LoggedVector[]): Uint8Array[] {
  const headers = vectors.map(({ id, hash, modelId, vector }) =>
    Buffer.from(JSON.stringify({ id, hash, model: modelId, dims: vector.length }), 'utf8'),
  );
  let total = 0;
  for (const json of headers) total += RECORD_HEADER + paddedHeader(json.length);
  // Every byte is written below (the padding as zeros), so the buffer need not be cleared first.
  const heads = Buffer.allocUnsafeSlow(total);
  const pieces: Uint8Array[] = [];
  let at = 0;
  for (let i = 0; i < vectors.length; i++) {
    const { vector } = vectors[i]!;
    const json = headers[i]!;
    const padded = paddedHeader(json.length);
    const payload = at + RECORD_HEADER;
    heads.writeUInt32LE(MAGIC, at);
    heads.writeUInt32LE(padded + vector.length * 4, at + 4);
    heads.writeUInt32LE(json.length, payload);
    json.copy(heads, payload + 4);
    heads.fill(0, payload + 4 + json.length, payload + padded);
    const body = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
    heads.writeUInt32LE(checksum(body, 0, body.length, checksum(heads, payload, payload + padded)), at + 8);
    pieces.push(heads.subarray(at, payload + padded), body);
    at = payload + padded;
  }
  return pieces;
}

/** The length of a record's JSON header with its length word, padded to 4 bytes (the vector's alignment). */
function paddedHeader(jsonLength: number): number {
  return Math.ceil((4 + jsonLength) / 4) * 4;
}

/** The whole records of a log's bytes, in order; what does not check out is skipped up to the next magic. */
export function decodeRecords(bytes: Buffer): LoggedVector[] {
  const found: LoggedVector[] = [];
  let at = 0;
  while (at + RECORD_HEADER <= bytes.length) {
    const record = bytes.readUInt32LE(at) === MAGIC ? decodeAt(bytes, at) : undefined;
    if (record) {
      found.push(record.vector);
      at = record.end;
    } else {
      at = nextMagic(bytes, at + 1);
    }
  }
  return found;
}

function decodeAt(bytes: Buffer, at: number): { vector: LoggedVector; end: number } | undefined {
  const payloadLength = bytes.readUInt32LE(at + 4);
  const end = at + RECORD_HEADER + payloadLength;
  if (payloadLength < 4 || payloadLength % 4 !== 0 || end > bytes.length) return undefined;
  if (checksum(bytes, at + RECORD_HEADER, end) !== bytes.readUInt32LE(at + 8)) return undefined;
  const jsonLength = bytes.readUInt32LE(at + RECORD_HEADER);
  const padded = Math.ceil((4 + jsonLength) / 4) * 4;
  if (padded > payloadLength) return undefined;
  let header: { id?: unknown; hash?: unknown; model?: unknown; dims?: unknown };
  try {
    header = JSON.parse(bytes.toString('utf8', at + RECORD_HEADER + 4, at + RECORD_HEADER + 4 + jsonLength)) as typeof header;
  } catch {
    return undefined;
  }
  const { id, hash, model, dims } = header;
  if (
    typeof id !== 'string' ||
    typeof hash !== 'string' ||
    typeof model !== 'string' ||
    typeof dims !== 'number' ||
    padded + dims * 4 !== payloadLength
  )
    return undefined;
  // A copy, aligned and the log's bytes free to go.
  const vector = new Float32Array(dims);
  new Uint8Array(vector.buffer).set(bytes.subarray(at + RECORD_HEADER + padded, end));
  return { vector: { id, hash, modelId: model, vector }, end };
}

const MAGIC_BYTES = Buffer.from([MAGIC & 0xff, (MAGIC >>> 8) & 0xff, (MAGIC >>> 16) & 0xff, MAGIC >>> 24]);

/**
 * The offset of the next magic at or after `from` (or the end). Records after a torn one start
 * wherever it ended, so any offset is looked at.
 */
function nextMagic(bytes: Buffer, from: number): number {
  const at = bytes.indexOf(MAGIC_BYTES, from);
  return at < 0 ? bytes.length : at;
}

const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * FNV-1a over the bytes `from`…`to` (a multiple of 4 long), word by word, little-endian; `seed`
 * continues a checksum begun over the bytes before them (a record's header, then its vector).
 */
function checksum(bytes: Uint8Array, from: number, to: number, seed = 0x811c9dc5): number {
  let hash = seed;
  if (LITTLE_ENDIAN && (bytes.byteOffset + from) % 4 === 0) {
    // The common case, read as words in place (a record after a torn one may start anywhere).
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset + from, (to - from) / 4);
    for (let i = 0; i < words.length; i++) hash = Math.imul(hash ^ words[i]!, 0x01000193);
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = from; i < to; i += 4) hash = Math.imul(hash ^ view.getUint32(i, true), 0x01000193);
  }
  return hash >>> 0;
}
