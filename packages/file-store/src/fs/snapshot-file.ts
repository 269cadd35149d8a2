/**
 * The container format of a collection snapshot (`memory/.snapshot.bin`): named sections of
 * JSON text, raw bytes or little-endian u32/f32 arrays behind a JSON header, with a checksum over
 * everything after it, so a torn, truncated or hand-edited file is refused as a whole.
 *
 * Layout: "RVS1", u32 header length, u32 checksum, the header JSON padded with spaces to a
 * multiple of 4 bytes, then each section padded with zeros to a multiple of 4 bytes.
 */

export type SnapshotSection =
  | { kind: 'json'; value: unknown }
  | { kind: 'bytes'; value: Uint8Array }
  | { kind: 'u32'; value: Uint32Array }
  | { kind: 'f32'; value: Float32Array };

/** Where in the change journal a snapshot was taken: it reflects every line before `offset`. */
export interface SnapshotPosition {
  epoch: string;
  /** Sequence number of the last journal line the snapshot reflects. */
  seq: number;
  inode: number;
  offset: number;
  /** When it was taken, by the host's clock (compared with file modification times). */
  takenAt: number;
}

export interface SnapshotContents {
  /** Format of the sections (record schema, index layout); a snapshot of another version is ignored. */
  version: string;
  /** Where in the change journal it was taken (absent for a file not tied to the journal). */
  position?: SnapshotPosition;
  sections: Map<string, SnapshotSection>;
}

const MAGIC = 'RVS1';
const PREFIX = 12;

interface SectionHeader {
  name: string;
  kind: SnapshotSection['kind'];
  bytes: number;
}

interface Header {
  version: string;
  position?: SnapshotPosition;
  sections: SectionHeader[];
}

/** Encodes a snapshot; a JSON section whose value is a string is taken as already-serialised JSON text. */
export function encodeSnapshot(contents: SnapshotContents): Buffer {
  const bodies: Buffer[] = [];
  const headers: SectionHeader[] = [];
  for (const [name, section] of contents.sections) {
    const body =
      section.kind === 'json'
        ? Buffer.from(typeof section.value === 'string' ? section.value : JSON.stringify(section.value), 'utf8')
        : Buffer.from(section.value.buffer, section.value.byteOffset, section.value.byteLength);
    headers.push({ name, kind: section.kind, bytes: body.length });
    bodies.push(body);
  }
  const header: Header = { version: contents.version, position: contents.position, sections: headers };
  let headerText = JSON.stringify(header);
  headerText += ' '.repeat(pad(Buffer.byteLength(headerText)) - Buffer.byteLength(headerText));
  const headerBytes = Buffer.from(headerText, 'utf8');
  let total = PREFIX + headerBytes.length;
  for (const body of bodies) total += pad(body.length);
  const out = Buffer.alloc(total);
  out.write(MAGIC, 0, 'ascii');
  out.writeUInt32LE(headerBytes.length, 4);
  headerBytes.copy(out, PREFIX);
  let at = PREFIX + headerBytes.length;
  for (const body of bodies) {
    body.copy(out, at);
    at += pad(body.length);
  }
  out.writeUInt32LE(checksum(out), 8);
  return out;
}

/**
 * Decodes a snapshot; undefined when the bytes are not a whole, unmodified snapshot (wrong
 * magic, a checksum that does not match, sections that do not add up). JSON sections are
 * returned as their text, for the caller to parse; byte and number sections are views of the
 * input, not copies.
 */
export function decodeSnapshot(
  input: Buffer,
): { version: string; position?: SnapshotPosition; sections: Map<string, DecodedSection> } | undefined {
  if (input.length < PREFIX || input.length % 4 !== 0 || input.toString('ascii', 0, 4) !== MAGIC) return undefined;
  // An aligned copy if need be, so the number sections can be viewed in place.
  const bytes = input.byteOffset % 4 === 0 ? input : copyOf(input);
  if (bytes.readUInt32LE(8) !== checksum(bytes)) return undefined;
  const headerLength = bytes.readUInt32LE(4);
  if (PREFIX + headerLength > bytes.length) return undefined;
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', PREFIX, PREFIX + headerLength)) as Header;
  } catch {
    return undefined;
  }
  if (
    typeof header.version !== 'string' ||
    !Array.isArray(header.sections) ||
    (header.position !== undefined && !isPosition(header.position))
  )
    return undefined;
  const sections = new Map<string, DecodedSection>();
  let at = PREFIX + headerLength;
  for (const section of header.sections) {
    if (at + section.bytes > bytes.length) return undefined;
    const offset = bytes.byteOffset + at;
    if (section.kind === 'json') sections.set(section.name, { kind: 'json', text: bytes.toString('utf8', at, at + section.bytes) });
    else if (section.kind === 'bytes') sections.set(section.name, { kind: 'bytes', value: bytes.subarray(at, at + section.bytes) });
    else if (section.kind === 'u32')
      sections.set(section.name, { kind: 'u32', value: new Uint32Array(bytes.buffer, offset, section.bytes / 4) });
    else if (section.kind === 'f32')
      sections.set(section.name, { kind: 'f32', value: new Float32Array(bytes.buffer, offset, section.bytes / 4) });
    else return undefined;
    at += pad(section.bytes);
  }
  if (at !== bytes.length) return undefined;
  return { version: header.version, ...(header.position ? { position: header.position } : {}), sections };
}

export type DecodedSection =
  | { kind: 'json'; text: string }
  | { kind: 'bytes'; value: Buffer }
  | { kind: 'u32'; value: Uint32Array }
  | { kind: 'f32'; value: Float32Array };

function isPosition(value: unknown): value is SnapshotPosition {
  const position = value as Partial<SnapshotPosition> | undefined;
  return (
    typeof position?.epoch === 'string' &&
    Number.isInteger(position.seq) &&
    Number.isInteger(position.inode) &&
    Number.isInteger(position.offset) &&
    typeof position.takenAt === 'number'
  );
}

/** A copy in a buffer of its own (`Buffer.alloc` never hands out a slice of the shared pool). */
function copyOf(input: Buffer): Buffer {
  const copy = Buffer.alloc(input.length);
  input.copy(copy);
  return copy;
}

function pad(length: number): number {
  return Math.ceil(length / 4) * 4;
}

/** A 32-bit FNV-1a-style hash of the u32 words after the checksum field. */
function checksum(bytes: Buffer): number {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  let hash = 0x811c9dc5;
  for (let i = PREFIX / 4; i < words.length; i++) hash = Math.imul(hash ^ words[i]!, 0x01000193);
  return hash >>> 0;
}
