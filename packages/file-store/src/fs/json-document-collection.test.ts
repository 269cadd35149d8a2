import { pbkdf2 } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, silentLogger } from '@reverie/core';
import { z } from 'zod';
import { JsonDocumentCollection } from './json-document-collection';

const noteSchema = z.object({ id: z.string(), text: z.string() });
type Note = z.infer<typeof noteSchema>;

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'reverie-collection-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function collection(journalCompactBytes?: number) {
  return new JsonDocumentCollection<Note>({
    root,
    clock: new ManualClock('2026-03-01T12:00:00Z'),
    logger: silentLogger,
    layout: { what: 'note', schema: noteSchema, keyOf: (note) => note.id, pathOf: (note) => `${note.id}.json`, isNewer: () => false },
    listener: { onPut: () => undefined, onDelete: () => undefined },
    ...(journalCompactBytes ? { journalCompactBytes } : {}),
  });
}

const put = (notes: JsonDocumentCollection<Note>, id: string) => notes.put(id, () => ({ id, text: `note ${id}` }));
const journal = () =>
  readFileSync(join(root, '.changes.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('JsonDocumentCollection change feed (SPEC B12)', () => {
  it('starts every journal with its history and numbers each change once, across instances', async () => {
    const a = collection();
    const b = collection();
    await put(a, 'one');
    await put(b, 'two');
    await a.delete('one');
    await put(b, 'three');
    const lines = journal();
    expect(lines[0]).toMatchObject({ op: 'start', seq: 0 });
    expect(lines.slice(1).map((line) => [line.op, line.key, line.seq])).toEqual([
      ['put', 'one', 1],
      ['put', 'two', 2],
      ['del', 'one', 3],
      ['put', 'three', 4],
    ]);
    const epoch = lines[0]!.epoch as string;
    const page = await a.changesSince({ epoch, seq: 1 }, 10);
    expect(page).toMatchObject({ epoch, through: 4, more: false, reset: false });
    expect(page.changes.map((change) => change.key)).toEqual(['two', 'one', 'three']);
  });

  it('answers a cursor from before a compaction with a reset, and goes on numbering after it', async () => {
    const notes = collection(300);
    await put(notes, 'one');
    const { epoch } = await notes.changesSince(undefined, 10);
    for (const id of ['two', 'three', 'four', 'five']) await put(notes, id);
    const lines = journal();
    expect(lines[0]).toMatchObject({ op: 'start', epoch });
    expect(lines[0]!.seq).toBeGreaterThan(0);
    expect(await notes.changesSince({ epoch, seq: 1 }, 10)).toMatchObject({ reset: true, through: 5 });
    await put(notes, 'six');
    expect((await notes.changesSince({ epoch, seq: 5 }, 10)).changes).toEqual([{ key: 'six', op: 'put', seq: 6 }]);
  });

  it('gives a journal written before the change feed a history of its own on the first write', async () => {
    writeFileSync(join(root, 'old.json'), JSON.stringify({ id: 'old', text: 'from before' }));
    writeFileSync(join(root, '.changes.jsonl'), `${JSON.stringify({ op: 'put', key: 'old', path: 'old.json' })}\n`);
    const notes = collection();
    const head = await notes.changesSince(undefined, 10);
    expect(head).toMatchObject({ reset: true, through: 0 });
    await put(notes, 'new');
    expect((await notes.changesSince({ epoch: head.epoch, seq: 0 }, 10)).changes.map((change) => change.key)).toEqual(['new']);
    expect((await notes.current()).has('old')).toBe(true);
  });

  it('starts its own line after a line torn by a writer that died mid-append', async () => {
    const notes = collection();
    await put(notes, 'one');
    const epoch = journal()[0]!.epoch as string;
    appendFileSync(join(root, '.changes.jsonl'), '{"op":"put","key":"ghost","pa');
    await put(notes, 'two');
    const page = await collection().changesSince({ epoch, seq: 1 }, 10);
    expect(page.changes).toEqual([{ key: 'two', op: 'put', seq: 2 }]);
    expect(readFileSync(join(root, '.changes.jsonl'), 'utf8')).toContain('"pa\n{"op":"put","key":"two"');
  });

  it('pages with a limit and resumes where the page ended', async () => {
    const notes = collection();
    const { epoch } = await notes.changesSince(undefined, 10);
    for (let i = 0; i < 5; i++) await put(notes, `n${i}`);
    const first = await notes.changesSince({ epoch, seq: 0 }, 2);
    expect(first).toMatchObject({ through: 2, more: true });
    const second = await notes.changesSince({ epoch, seq: first.through }, 2);
    expect(second.changes.map((change) => change.key)).toEqual(['n2', 'n3']);
    const last = await notes.changesSince({ epoch, seq: second.through }, 2);
    expect(last).toMatchObject({ through: 5, more: false });
    expect(last.changes.map((change) => change.key)).toEqual(['n4']);
  });
});

describe('JsonDocumentCollection reads', () => {
  it('answers without waiting for the thread pool when no process changed anything', async () => {
    const notes = collection();
    await put(notes, 'one');
    const other = collection();
    await other.current();
    // Fill the thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise) with slow jobs:
    // a read that went through it would wait for them.
    let finished = 0;
    const jobs = Array.from(
      { length: 16 },
      () =>
        new Promise<void>((resolve) =>
          pbkdf2('secret', 'salt', 20_000, 32, 'sha256', () => {
            finished += 1;
            resolve();
          }),
        ),
    );
    expect((await other.current()).has('one')).toBe(true);
    expect(finished).toBe(0);
    await Promise.all(jobs);
    // Whatever another process wrote is still read (through the thread pool).
    await put(notes, 'two');
    expect((await other.current()).has('two')).toBe(true);
  });
});

describe('JsonDocumentCollection: a record the listener cannot take in (SPEC M2)', () => {
  /** A listener that cannot index a note whose text holds "poison", as the memory store's index once could not take "constructor". */
  function picky(indexed: Map<string, string>) {
    const refuse = (note: Note) => {
      if (note.text.includes('poison')) throw new TypeError('word.toLowerCase is not a function');
    };
    return new JsonDocumentCollection<Note>({
      root,
      clock: new ManualClock('2026-03-01T12:00:00Z'),
      logger: silentLogger,
      layout: { what: 'note', schema: noteSchema, keyOf: (note) => note.id, pathOf: (note) => `${note.id}.json`, isNewer: () => false },
      listener: {
        check: refuse,
        onPut: (note) => {
          refuse(note);
          indexed.set(note.id, note.text);
        },
        onDelete: (note) => indexed.delete(note.id),
      },
    });
  }
  const quarantined = () => readdirSync(join(root, '.quarantine'));
  const ids = (records: { values(): IterableIterator<Note> }) => [...records.values()].map((note) => note.id);

  it('refuses to write it, with INTERNAL (not a disk error), and writes nothing', async () => {
    const indexed = new Map<string, string>();
    const notes = picky(indexed);
    await notes.put('good', () => ({ id: 'good', text: 'fine' }));
    const failure = await notes.put('bad', () => ({ id: 'bad', text: 'a poison note' })).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'INTERNAL' });
    expect((failure as Error).message).toContain('word.toLowerCase is not a function');
    expect((failure as Error).message).not.toMatch(/Check the disk|space left|permissions of/);
    expect(existsSync(join(root, 'bad.json'))).toBe(false);
    expect(journal().map((line) => line.key)).toEqual([undefined, 'good']);
    expect(ids(await notes.current())).toEqual(['good']);
    await notes.put('later', () => ({ id: 'later', text: 'still works' }));
    expect([...indexed.keys()].sort()).toEqual(['good', 'later']);
  });

  it('quarantines such a record found on disk when it opens, and serves the others', async () => {
    writeFileSync(join(root, 'good.json'), JSON.stringify({ id: 'good', text: 'fine' }));
    writeFileSync(join(root, 'bad.json'), JSON.stringify({ id: 'bad', text: 'a poison note' }));
    const indexed = new Map<string, string>();
    const notes = picky(indexed);
    expect(ids(await notes.current())).toEqual(['good']);
    expect([...indexed.keys()]).toEqual(['good']);
    expect(existsSync(join(root, 'bad.json'))).toBe(false);
    const [aside] = quarantined();
    expect(JSON.parse(readFileSync(join(root, '.quarantine', aside!), 'utf8'))).toEqual({ id: 'bad', text: 'a poison note' });
    await notes.put('next', () => ({ id: 'next', text: 'saved after' }));
    expect(ids(await notes.current()).sort()).toEqual(['good', 'next']);
  });

  it('quarantines such a record another process wrote, and keeps the one it replaced out of the index', async () => {
    const indexed = new Map<string, string>();
    const reader = picky(indexed);
    const writer = collection();
    await writer.put('shared', () => ({ id: 'shared', text: 'harmless' }));
    expect(ids(await reader.current())).toEqual(['shared']);
    await writer.put('shared', () => ({ id: 'shared', text: 'now poison' }));
    await writer.put('other', () => ({ id: 'other', text: 'fine' }));
    expect(ids(await reader.current())).toEqual(['other']);
    expect([...indexed.keys()]).toEqual(['other']);
    expect(quarantined()).toHaveLength(1);
  });
});
