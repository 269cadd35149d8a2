import { describe, expect, it, vi } from 'vitest';
import { RecordMap, SnapshotRecords } from './record-map';

interface Note {
  id: string;
  folder: string;
  text: string;
}

const notes: Note[] = [
  { id: 'a', folder: 'x', text: 'first' },
  { id: 'b', folder: 'y', text: 'sécond' },
  { id: 'c', folder: 'x', text: 'third' },
];

/** The sections a collection writes for `records`, read back as a snapshot. */
function snapshotOf(records: Note[]): SnapshotRecords<Note> {
  const texts = records.map((note) => Buffer.from(JSON.stringify(note), 'utf8'));
  const ends = new Uint32Array(texts.length);
  texts.reduce((at, text, i) => (ends[i] = at + text.length), 0);
  const paths = records.map((note) => Buffer.from(`${note.folder}/${note.id}.json`, 'utf8'));
  const pathEnds = new Uint32Array(paths.length);
  paths.reduce((at, path, i) => (pathEnds[i] = at + path.length), 0);
  return new SnapshotRecords<Note>(
    records.map((note) => note.id),
    Buffer.concat(texts),
    ends,
    Buffer.concat(paths),
    pathEnds,
  );
}

describe('SnapshotRecords', () => {
  it('gives each record, its bytes and its path as written', () => {
    const stored = snapshotOf(notes);
    expect(stored.size).toBe(3);
    expect(stored.recordAt(1)).toEqual(notes[1]);
    expect(stored.bytesAt(1).toString('utf8')).toBe(JSON.stringify(notes[1]));
    expect(stored.pathAt(2)).toBe('x/c.json');
    expect(stored.recordOf('c')).toEqual(notes[2]);
    expect(stored.recordOf('z')).toBeUndefined();
    expect([stored.has('a'), stored.has('z')]).toEqual([true, false]);
  });

  it('refuses offsets out of order, past the bytes or not one per record', () => {
    const texts = Buffer.from('{"id":"a"}{"id":"b"}');
    const paths = Buffer.from('a.jsonb.json');
    const pathEnds = Uint32Array.of(6, 12);
    expect(() => new SnapshotRecords(['a', 'b'], texts, Uint32Array.of(10, 5), paths, pathEnds)).toThrow(/record offsets are not in order/);
    expect(() => new SnapshotRecords(['a', 'b'], texts, Uint32Array.of(10, 99), paths, pathEnds)).toThrow(
      /record offsets are not in order/,
    );
    expect(() => new SnapshotRecords(['a'], texts, Uint32Array.of(10, 20), paths, pathEnds)).toThrow(/records and their offsets differ/);
    expect(() => new SnapshotRecords(['a', 'b'], texts, Uint32Array.of(10, 20), paths, Uint32Array.of(6, 13))).toThrow(
      /path offsets are not in order/,
    );
    expect(() => new SnapshotRecords(['a', 'b'], texts, Uint32Array.of(10, 20), paths, Uint32Array.of(6))).toThrow(
      /paths and their offsets differ/,
    );
    expect(new SnapshotRecords(['a', 'b'], texts, Uint32Array.of(10, 20), paths, pathEnds).pathAt(1)).toBe('b.json');
  });
});

describe('RecordMap', () => {
  it('parses a record from the snapshot only when it is read, once', () => {
    const stored = snapshotOf(notes);
    const parse = vi.spyOn(stored, 'recordAt');
    const pathOf = vi.fn((note: Note) => `${note.folder}/${note.id}.json`);
    const records = new RecordMap(pathOf, stored);
    expect([records.size, records.has('b'), records.pathOf('b')]).toEqual([3, true, 'y/b.json']);
    expect(parse).not.toHaveBeenCalled();
    const first = records.get('b');
    expect(first).toEqual(notes[1]);
    expect(records.get('b')).toBe(first);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(pathOf).not.toHaveBeenCalled();
    expect([...records.values()]).toEqual(notes);
  });

  it('tells which records are still the snapshot’s, and keeps the snapshot’s version readable after a change', () => {
    const stored = snapshotOf(notes);
    const records = new RecordMap((note: Note) => `${note.folder}/${note.id}.json`, stored);
    records.get('a');
    records.set('b', { id: 'b', folder: 'z', text: 'moved' });
    records.delete('c');
    records.set('d', { id: 'd', folder: 'x', text: 'new' });
    expect(['a', 'b', 'c', 'd'].map((key) => records.isAsSnapshot(key))).toEqual([true, false, false, false]);
    expect(records.pathOf('b')).toBe('z/b.json');
    expect(stored.recordOf('b')).toEqual(notes[1]);
    expect(new RecordMap((note: Note) => note.id).isAsSnapshot('a')).toBe(false);
  });

  it('serialises the records not read since the snapshot as their bytes, the others as records', () => {
    const stored = snapshotOf(notes);
    const records = new RecordMap((note: Note) => `${note.folder}/${note.id}.json`, stored);
    records.get('a');
    const moved = { id: 'b', folder: 'z', text: 'moved' };
    records.set('b', moved);
    const serialised = records.serialise();
    expect(serialised.map(({ key, path }) => [key, path])).toEqual([
      ['a', 'x/a.json'],
      ['b', 'z/b.json'],
      ['c', 'x/c.json'],
    ]);
    expect('record' in serialised[0]! && serialised[0].record).toEqual(notes[0]);
    expect('record' in serialised[1]! && serialised[1].record).toBe(moved);
    expect('bytes' in serialised[2]! && serialised[2].bytes.toString('utf8')).toBe(JSON.stringify(notes[2]));
  });

  it('refuses a snapshot that lists a key twice', () => {
    expect(() => new RecordMap((note: Note) => note.id, snapshotOf([notes[0]!, notes[0]!]))).toThrow(/twice/);
  });
});
