import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock, type MemoryEntry, memoryDocumentText as memoryDocumentTextOf, RecordingLogger } from '@reverie/core';
import { createFakeEmbedder } from '@reverie/core/testing';
import { decodeSnapshot, encodeSnapshot, type SnapshotSection } from '../fs/snapshot-file';
import { FileMemoryStore } from './file-memory-store';
import { contentHash, encodeEmbedding } from '../embeddings/embedding-file';

let dataPath: string;
const open: FileMemoryStore[] = [];
const snapshotFile = () => join(dataPath, 'memory', '.snapshot.bin');
const journalFile = () => join(dataPath, 'memory', '.changes.jsonl');
/** What compaction does to the journal: a new file (new inode) that starts after its last change. */
function compactJournal(): void {
  const lines = readFileSync(journalFile(), 'utf8').trim().split('\n');
  const start = JSON.parse(lines[0]!) as { epoch: string };
  const lastSeq = Math.max(...lines.map((line) => (JSON.parse(line) as { seq: number }).seq));
  writeFileSync(`${journalFile()}.new`, `${JSON.stringify({ op: 'start', epoch: start.epoch, seq: lastSeq })}\n`);
  renameSync(`${journalFile()}.new`, journalFile());
}

function store(logger = new RecordingLogger()): FileMemoryStore {
  const created = new FileMemoryStore({ dataPath, clock: new ManualClock('2026-03-01T12:00:00Z'), logger });
  open.push(created);
  return created;
}

/** Why the last open did not use the snapshot, or undefined if it did. */
const refusal = (logger: RecordingLogger) =>
  logger.records.find((record) => record.level === 'info' && /snapshot/.test(record.message))?.context?.reason as string | undefined;

const QUERIES = ['deploy kubernetes', 'budget', 'invoice numbering', 'berlin travel', 'postgres backup', 'grafana'];
const TOPICS = [
  'kubernetes deployment',
  'the quarterly budget',
  'invoice numbering',
  'travel to Berlin',
  'postgres backups',
  'grafana dashboards',
  'deploy freeze',
];

/** Every hit of each query, in a canonical order (ties by id), so two stores can be compared. */
async function answers(memory: FileMemoryStore): Promise<Array<Array<[string, number, string]>>> {
  const all: Array<Array<[string, number, string]>> = [];
  for (const text of QUERIES) {
    const hits = await memory.search({ text, maxResults: 1000 });
    all.push(
      hits
        .map((hit): [string, number, string] => [hit.entry.id, hit.score, hit.entry.content])
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
    );
  }
  return all;
}

/** What a full scan of the directory answers (the snapshot removed first). */
async function scanAnswers(): Promise<Array<Array<[string, number, string]>>> {
  const kept = existsSync(snapshotFile()) ? readFileSync(snapshotFile()) : undefined;
  rmSync(snapshotFile(), { force: true });
  const logger = new RecordingLogger();
  const scan = new FileMemoryStore({ dataPath, clock: new ManualClock('2026-03-01T12:00:00Z'), logger });
  const result = await answers(scan);
  await scan.close();
  // Closing wrote a snapshot of its own: put back the one under test.
  if (kept) writeFileSync(snapshotFile(), kept);
  else rmSync(snapshotFile(), { force: true });
  return result;
}

/**
 * Writes the snapshot on disk again under another version (`versionOf` its current one), leaving
 * out the sections `drop` names, as an older release would have written it; gives back the
 * snapshot as it was.
 */
function restampSnapshot(versionOf: (version: string) => string, drop: readonly string[] = []) {
  const decoded = decodeSnapshot(readFileSync(snapshotFile()))!;
  const sections = new Map<string, SnapshotSection>(
    [...decoded.sections]
      .filter(([name]) => !drop.includes(name))
      .map(([name, section]) => [name, section.kind === 'json' ? { kind: 'json', value: section.text } : section]),
  );
  writeFileSync(snapshotFile(), encodeSnapshot({ version: versionOf(decoded.version), position: decoded.position, sections }));
  return decoded;
}

async function seed(count = 60): Promise<MemoryEntry[]> {
  const memory = store();
  const saved: MemoryEntry[] = [];
  for (let i = 0; i < count; i++) {
    saved.push(
      await memory.save({
        content: `Note ${i}: ${TOPICS[i % TOPICS.length]} came up again (${TOPICS[(i * 3) % TOPICS.length]})`,
        category: `project-context/p${i % 4}`,
        tags: [`t${i % 3}`],
      }),
    );
  }
  await memory.delete(saved[5]!.id);
  await memory.save({ ...saved[6]!, content: 'Rewritten: the grafana dashboards moved to the ops team' });
  await memory.close();
  return saved;
}

beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-snapshot-'));
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  rmSync(dataPath, { recursive: true, force: true });
});

describe('FileMemoryStore snapshot', () => {
  it('is written on close and answers exactly as a full scan does', async () => {
    await seed();
    expect(existsSync(snapshotFile())).toBe(true);
    const logger = new RecordingLogger();
    const reopened = store(logger);
    const fromSnapshot = await answers(reopened);
    expect(refusal(logger)).toBeUndefined();
    expect(fromSnapshot.flat().length).toBeGreaterThan(20);
    expect(fromSnapshot).toEqual(await scanAnswers());
    expect(await reopened.listCategories()).toHaveLength(4);
  });

  it('keeps answering as a scan after writes on top of a snapshot-opened index', async () => {
    const saved = await seed();
    const memory = store();
    await memory.search({ text: 'budget' });
    await memory.save({ content: 'A fresh note about the quarterly budget and kubernetes', category: 'general' });
    await memory.delete(saved[7]!.id);
    expect(await answers(memory)).toEqual(await scanAnswers());
  });

  it('applies the changes another instance made after the snapshot (the journal tail)', async () => {
    const saved = await seed();
    const other = store();
    const added = await other.save({ content: 'Written after the snapshot: postgres backups run nightly' });
    await other.save({ ...saved[1]!, content: 'Changed after the snapshot: budget approved', category: 'general' });
    await other.delete(saved[2]!.id);
    // `other` is left open: the snapshot on disk predates its writes.
    const logger = new RecordingLogger();
    const reopened = store(logger);
    expect(await reopened.get(added.id)).toMatchObject({ content: added.content });
    expect(await reopened.get(saved[2]!.id)).toBeUndefined();
    expect(refusal(logger)).toBeUndefined();
    expect(await answers(reopened)).toEqual(await scanAnswers());
  });

  it('is not used when the journal was compacted past it, and is rewritten', async () => {
    await seed();
    const other = store();
    const added = await other.save({ content: 'Grafana alert thresholds changed' });
    compactJournal();
    const logger = new RecordingLogger();
    const reopened = store(logger);
    expect(await reopened.get(added.id)).toBeDefined();
    expect(refusal(logger)).toMatch(/compacted/);
    expect(await answers(reopened)).toEqual(await scanAnswers());
    await reopened.close();
    const again = new RecordingLogger();
    await store(again).search({ text: 'grafana' });
    expect(refusal(again)).toBeUndefined();
  });

  it('is used after a compaction made exactly at its position', async () => {
    await seed();
    compactJournal();
    const logger = new RecordingLogger();
    const reopened = store(logger);
    expect(await answers(reopened)).toEqual(await scanAnswers());
    expect(refusal(logger)).toBeUndefined();
  });

  it('is not used for another history (a journal started afresh)', async () => {
    await seed();
    writeFileSync(journalFile(), `${JSON.stringify({ op: 'start', epoch: 'another-history', seq: 0 })}\n`);
    const logger = new RecordingLogger();
    const reopened = store(logger);
    expect(await answers(reopened)).toEqual(await scanAnswers());
    expect(refusal(logger)).toMatch(/another history/);
  });

  it('never serves an entry whose file was deleted or quarantined, and finds files added without a journal line', async () => {
    const saved = await seed();
    const victim = saved[10]!;
    rmSync(join(dataPath, 'memory', victim.category, `${victim.id}.json`));
    // As a process of an older version (or a hand copy) would leave it: a file, no journal line.
    const stranger: MemoryEntry = {
      ...saved[11]!,
      id: 'aaaabbbbcccc',
      content: 'Copied in by hand: kubernetes deployment runbook',
      category: 'imported',
    };
    mkdirSync(join(dataPath, 'memory', 'imported'), { recursive: true });
    writeFileSync(join(dataPath, 'memory', 'imported', 'aaaabbbbcccc.json'), JSON.stringify(stranger));
    writeFileSync(join(dataPath, 'memory', 'imported', 'ddddeeeeffff.json'), '{"id": "ddddeeeeffff", "content": "torn');
    const logger = new RecordingLogger();
    const reopened = store(logger);
    expect(await reopened.get(victim.id)).toBeUndefined();
    expect(await reopened.get(stranger.id)).toEqual(stranger);
    expect(refusal(logger)).toBeUndefined();
    expect(logger.records.some((record) => record.level === 'warn' && /quarantine/.test(record.message))).toBe(true);
    expect(await answers(reopened)).toEqual(await scanAnswers());
  });

  it('lists only the folders changed since the snapshot, and still sees every removal and addition in them', async () => {
    const saved = await seed();
    // Folders last changed an hour before the snapshot: their times are trusted on open.
    const memory = store();
    await memory.save({ content: 'One more note so the snapshot is rewritten' });
    const hourAgo = new Date(Date.now() - 3_600_000);
    const folders = [
      join(dataPath, 'memory'),
      ...readdirSync(join(dataPath, 'memory'), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
        .map((entry) => join(entry.parentPath, entry.name)),
    ];
    for (const folder of folders) utimesSync(folder, hourAgo, hourAgo);
    await memory.close();
    const untouched = new RecordingLogger();
    expect(await answers(store(untouched))).toEqual(await scanAnswers());
    expect(refusal(untouched)).toBeUndefined();

    const victim = saved.find((entry) => entry.category === 'project-context/p1' && entry.id !== saved[5]!.id)!;
    rmSync(join(dataPath, 'memory', 'project-context', 'p1', `${victim.id}.json`));
    const stranger: MemoryEntry = {
      ...saved[20]!,
      id: 'aaaabbbbcccc',
      content: 'Copied in by hand: the zeppelin hangar',
      category: 'project-context/p2',
    };
    writeFileSync(join(dataPath, 'memory', 'project-context', 'p2', 'aaaabbbbcccc.json'), JSON.stringify(stranger));
    // A whole category folder removed by hand.
    const removed = saved.filter((entry) => entry.category === 'project-context/p3');
    rmSync(join(dataPath, 'memory', 'project-context', 'p3'), { recursive: true });
    const logger = new RecordingLogger();
    const reopened = store(logger);
    expect(await reopened.get(victim.id)).toBeUndefined();
    expect(await reopened.get(stranger.id)).toEqual(stranger);
    for (const entry of removed) expect(await reopened.get(entry.id)).toBeUndefined();
    expect((await reopened.listCategories()).map((count) => count.category)).not.toContain('project-context/p3');
    expect(refusal(logger)).toBeUndefined();
    expect(await answers(reopened)).toEqual(await scanAnswers());
  });

  it('picks up an entry file edited in place after the snapshot', async () => {
    const saved = await seed();
    const target = saved[12]!;
    const file = join(dataPath, 'memory', target.category, `${target.id}.json`);
    writeFileSync(file, JSON.stringify({ ...target, content: 'Edited by hand: the zeppelin hangar lease' }));
    const reopened = store();
    await vi.waitFor(async () => expect((await reopened.search({ text: 'zeppelin' })).map((hit) => hit.entry.id)).toEqual([target.id]));
    expect(await answers(reopened)).toEqual(await scanAnswers());
  });

  it('refuses a torn, truncated or hand-edited snapshot and serves a full scan instead', async () => {
    await seed();
    const whole = readFileSync(snapshotFile());
    const damaged = [
      whole.subarray(0, Math.floor(whole.length / 2)),
      Buffer.from(whole.toString('latin1').replace('grafana', 'GRAFANA'), 'latin1'),
      (() => {
        const flipped = Buffer.from(whole);
        flipped[flipped.length - 5]! ^= 0xff;
        return flipped;
      })(),
      Buffer.from('not a snapshot at all'),
    ];
    const expected = await scanAnswers();
    for (const bytes of damaged) {
      writeFileSync(snapshotFile(), bytes);
      const logger = new RecordingLogger();
      expect(await answers(store(logger))).toEqual(expected);
      expect(refusal(logger)).toMatch(/not a whole snapshot/);
    }
  });

  it('refuses a snapshot of another version, even with a valid checksum', async () => {
    await seed();
    restampSnapshot(() => 'memory-entries/0 bm25/0');
    const logger = new RecordingLogger();
    expect(await answers(store(logger))).toEqual(await scanAnswers());
    expect(refusal(logger)).toMatch(/version/);
  });

  it('keeps which entries have validity bounds, so a superseded entry stays out of recall after an open from it (SPEC B9)', async () => {
    const saved = await seed();
    const memory = store();
    const successor = await memory.save({ content: 'Budget owner is now Dana', validFrom: '2026-02-01T00:00:00Z' });
    await memory.save({ ...saved[1]!, validTo: '2026-02-01T00:00:00Z', supersededBy: successor.id });
    await memory.close();
    const logger = new RecordingLogger();
    const reopened = store(logger);
    const budget = (await reopened.search({ text: 'budget', maxResults: 1000 })).map((hit) => hit.entry.id);
    expect(refusal(logger)).toBeUndefined();
    expect(budget).toContain(successor.id);
    expect(budget).not.toContain(saved[1]!.id);
    expect(await answers(reopened)).toEqual(await scanAnswers());
  });

  it('is refused once when written by the version before validity (memory-entries/2), then rewritten', async () => {
    await seed();
    const decoded = restampSnapshot((version) => version.replace(/memory-entries\/\d+/, 'memory-entries/2'), ['memory.bounded']);
    const logger = new RecordingLogger();
    const reopened = store(logger);
    expect(await answers(reopened)).toEqual(await scanAnswers());
    expect(refusal(logger)).toMatch(/version/);
    await reopened.close();
    expect(decodeSnapshot(readFileSync(snapshotFile()))!.version).toBe(decoded.version);
    const again = new RecordingLogger();
    await store(again).search({ text: 'budget' });
    expect(refusal(again)).toBeUndefined();
  });

  it('rebuilds, once and by itself, a snapshot the release before stemming wrote (bm25/1)', async () => {
    await seed();
    const decoded = restampSnapshot((version) => version.replace(/bm25\/3$/, 'bm25/1'));
    expect(decoded.version).toMatch(/ bm25\/3$/);
    const logger = new RecordingLogger();
    const reopened = store(logger);
    // "deploys" is in no entry: only stems find the "deploy" and "deployment" notes.
    expect((await reopened.search({ text: 'deploys', maxResults: 100 })).length).toBeGreaterThan(0);
    expect(refusal(logger)).toMatch(/version/);
    await reopened.close();
    expect(decodeSnapshot(readFileSync(snapshotFile()))!.version).toBe(decoded.version);
    const again = new RecordingLogger();
    expect(await answers(store(again))).toEqual(await scanAnswers());
    expect(refusal(again)).toBeUndefined();
  });

  it('keeps lineage in the entries it holds (SPEC B10); one written before lineage (memory-entries/3) is refused once, then rewritten', async () => {
    await seed();
    const memory = store();
    const merged = await memory.save({
      content: 'Budget owner is Dana, since the reorg',
      lineage: {
        origin: { kind: 'merge', at: '2026-02-01T00:00:00.000Z', runId: 'a0a0a0a0a0a0' },
        ancestors: [
          {
            id: 'b1b1b1b1b1b1',
            relation: 'merged',
            into: 'c2c2c2c2c2c2',
            at: '2026-02-01T00:00:00.000Z',
            excerpt: 'Budget owner is Dana',
            fingerprint: '0badf00d',
          },
        ],
      },
    });
    await memory.close();
    const logger = new RecordingLogger();
    const reopened = store(logger);
    expect(await reopened.get(merged.id)).toEqual(merged);
    expect(refusal(logger)).toBeUndefined();
    await reopened.close();

    const decoded = restampSnapshot((version) => version.replace(/memory-entries\/\d+/, 'memory-entries/4'));
    const older = new RecordingLogger();
    const upgraded = store(older);
    expect(await upgraded.get(merged.id)).toEqual(merged);
    expect(await answers(upgraded)).toEqual(await scanAnswers());
    expect(refusal(older)).toMatch(/version/);
    await upgraded.close();
    expect(decodeSnapshot(readFileSync(snapshotFile()))!.version).toBe(decoded.version);
  });

  it('one written before a category became a label (memory-entries/6, its lengths count the category) is refused once, then rewritten', async () => {
    await seed();
    const memory = store();
    await memory.save({ content: 'Budget review with Dana', category: 'people/dana/quarterly-budget-and-reviews' });
    await memory.close();
    const decoded = restampSnapshot((version) => version.replace(/memory-entries\/\d+/, 'memory-entries/6'));
    const older = new RecordingLogger();
    const upgraded = store(older);
    expect(await answers(upgraded)).toEqual(await scanAnswers());
    expect(refusal(older)).toMatch(/version/);
    await upgraded.close();
    expect(decodeSnapshot(readFileSync(snapshotFile()))!.version).toBe(decoded.version);
  });

  it("keeps merged entries' passages (SPEC M3, B10): an open from it ranks them as a full scan does, and as writes on top change them", async () => {
    const saved = await seed(20);
    const memory = store();
    const lineage = (passages: string[]) => ({ origin: { kind: 'merge' as const, at: '2026-02-01T00:00:00.000Z' }, passages });
    const merged = await memory.save({
      content: 'Dana owns the budget and the grafana dashboards',
      lineage: lineage([
        'The quarterly budget is owned by Dana since the reorg',
        'Grafana dashboards for invoice numbering were handed to Dana',
      ]),
    });
    const other = await memory.save({
      content: 'Berlin travel is booked',
      lineage: lineage(['Postgres backups run before the Berlin travel']),
    });
    await memory.close();

    const logger = new RecordingLogger();
    const reopened = store(logger);
    expect(refusal(logger)).toBeUndefined();
    expect(await answers(reopened)).toEqual(await scanAnswers());
    const [hit] = await reopened.search({ text: 'invoice numbering handed', maxResults: 1 });
    expect(hit?.entry.id).toBe(merged.id);
    // Writes on top of the imported index: a passage replaced, a merge deleted, a plain entry rewritten.
    await reopened.save({ ...merged, lineage: lineage(['Kubernetes deployment is owned by Dana']) });
    await reopened.delete(other.id);
    await reopened.save({ ...saved[3]!, content: 'Rewritten: postgres backups moved' });
    expect(await answers(reopened)).toEqual(await scanAnswers());
    expect((await reopened.search({ text: 'kubernetes owned', maxResults: 1 }))[0]?.entry.id).toBe(merged.id);
    expect(await reopened.search({ text: 'handed', maxResults: 5 })).toEqual([]);
  });

  it('refuses well-formed sections that do not fit the entries', async () => {
    await seed();
    const decoded = decodeSnapshot(readFileSync(snapshotFile()))!;
    const sections = new Map<string, SnapshotSection>(
      [...decoded.sections].map(([name, section]) => [name, section.kind === 'json' ? { kind: 'json', value: section.text } : section]),
    );
    const ids = JSON.parse((decoded.sections.get('bm25.ids') as { text: string }).text) as string[];
    const categories = JSON.parse((decoded.sections.get('memory.categories') as { text: string }).text) as Array<[string, number]>;
    const misfits: Array<[string, unknown]> = [
      ['bm25.ids', [...ids.slice(1), 'ffffffffffff']],
      ['memory.categories', categories.map(([category, count], i) => [category, i === 0 ? count + 1 : count])],
      ['memory.bounded', ['ffffffffffff']],
      ['records.keys', { keys: 'not a list' }],
    ];
    for (const [name, value] of misfits) {
      writeFileSync(
        snapshotFile(),
        encodeSnapshot({
          version: decoded.version,
          position: decoded.position,
          sections: new Map([...sections, [name, { kind: 'json', value }]]),
        }),
      );
      const logger = new RecordingLogger();
      expect(await answers(store(logger)), name).toEqual(await scanAnswers());
      expect(refusal(logger), name).toMatch(/do not fit/);
    }
  });

  it('ignores a temporary file left by a snapshot write that never finished', async () => {
    await seed();
    const whole = readFileSync(snapshotFile());
    writeFileSync(join(dataPath, 'memory', `.snapshot.bin.999.abcd1234.tmp`), whole.subarray(0, 100));
    const logger = new RecordingLogger();
    expect(await answers(store(logger))).toEqual(await scanAnswers());
    expect(refusal(logger)).toBeUndefined();
  });

  it('can be deleted at any time: the next open scans and writes a new one', async () => {
    await seed();
    rmSync(snapshotFile());
    const memory = store();
    const expected = await answers(memory);
    await memory.close();
    expect(existsSync(snapshotFile())).toBe(true);
    const logger = new RecordingLogger();
    expect(await answers(store(logger))).toEqual(expected);
    expect(refusal(logger)).toBeUndefined();
  });
});

describe('FileMemoryStore embedding matrix', () => {
  const matrixFile = () => join(dataPath, 'memory', '.embeddings', '.matrix.bin');
  const vectorFiles = () => readdirSync(join(dataPath, 'memory', '.embeddings')).filter((name) => !name.startsWith('.'));
  const withEmbedder = (embedder: ReturnType<typeof createFakeEmbedder>) => {
    const created = new FileMemoryStore({ dataPath, clock: new ManualClock('2026-03-01T12:00:00Z'), embedder });
    open.push(created);
    return created;
  };
  const ranked = async (memory: FileMemoryStore) =>
    (await memory.search({ text: 'grafana dashboards budget', maxResults: 20 })).map((hit) => [hit.entry.id, hit.score]);

  async function seedVectors(): Promise<MemoryEntry[]> {
    const embedder = createFakeEmbedder();
    const memory = withEmbedder(embedder);
    const saved: MemoryEntry[] = [];
    for (let i = 0; i < 30; i++) saved.push(await memory.save({ content: `Vector note ${i}: ${TOPICS[i % TOPICS.length]}` }));
    await memory.flushEmbeddings();
    await memory.close();
    return saved;
  }

  it('is written on close and loads every vector on open without one file per entry or a new embedding', async () => {
    await seedVectors();
    expect(existsSync(matrixFile())).toBe(true);
    const first = withEmbedder(createFakeEmbedder());
    await first.flushEmbeddings();
    const expected = await ranked(first);
    // Only the matrix left: the vectors must come from it.
    for (const name of vectorFiles()) rmSync(join(dataPath, 'memory', '.embeddings', name));
    const embedder = createFakeEmbedder();
    const reopened = withEmbedder(embedder);
    await reopened.flushEmbeddings();
    // The query is embedded; no entry is.
    expect(await ranked(reopened)).toEqual(expected);
    expect(embedder.calls.every((call) => call.length === 1 && call[0] === 'grafana dashboards budget')).toBe(true);
  });

  it('never gives a changed entry its old vector, and re-embeds only what changed', async () => {
    const saved = await seedVectors();
    // Changed without an embedder (as another process without one would): the matrix is stale.
    const plain = store();
    await plain.save({ ...saved[3]!, content: 'Now about the zeppelin hangar instead' });
    await plain.close();
    const embedder = createFakeEmbedder();
    const reopened = withEmbedder(embedder);
    await reopened.flushEmbeddings();
    expect(embedder.calls.flat()).toEqual([memoryDocumentTextOf({ ...saved[3]!, content: 'Now about the zeppelin hangar instead' })]);
    const hits = await reopened.search({ text: 'zeppelin', maxResults: 3 });
    expect(hits[0]?.entry.id).toBe(saved[3]!.id);
  });

  it('ignores a torn matrix: its vectors are embedded again, and a whole one is written at close', async () => {
    await seedVectors();
    const whole = readFileSync(matrixFile());
    writeFileSync(matrixFile(), whole.subarray(0, whole.length - 40));
    const embedder = createFakeEmbedder();
    const reopened = withEmbedder(embedder);
    await reopened.flushEmbeddings();
    expect(embedder.embeddedTexts).toBe(30);
    await reopened.close();
    expect(readFileSync(matrixFile()).length).toBe(whole.length);
  });

  it('reads the per-entry vector files an older version wrote, without embedding them again, and folds them into the matrix', async () => {
    const saved = await seedVectors();
    // As the previous layout left it: one file per vector, no matrix, no log.
    const reader = withEmbedder(createFakeEmbedder());
    await reader.flushEmbeddings();
    const expected = await ranked(reader);
    await reader.close();
    const embedder = createFakeEmbedder();
    const vectors = await embedder.embed(saved.map((entry) => memoryDocumentTextOf(entry)));
    rmSync(matrixFile());
    saved.forEach((entry, i) =>
      writeFileSync(
        join(dataPath, 'memory', '.embeddings', `${entry.id}.bin`),
        encodeEmbedding({ modelId: embedder.modelId, contentHash: contentHash(memoryDocumentTextOf(entry)) }, vectors[i]!),
      ),
    );
    const counting = createFakeEmbedder();
    const reopened = withEmbedder(counting);
    await reopened.flushEmbeddings();
    expect(counting.embeddedTexts).toBe(0);
    expect(await ranked(reopened)).toEqual(expected);
    await reopened.close();
    expect(existsSync(matrixFile())).toBe(true);
    expect(vectorFiles().filter((name) => name.endsWith('.bin'))).toEqual([]);
  });
});
