import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemoryLongTermMemory, ManualClock, memoryEntrySchema, RecordingLogger } from '@reverie/core';
import { createFakeEmbedder, HOSTILE_PATHS } from '@reverie/core/testing';
import { FileMemoryStore } from './file-memory-store';

let dataPath: string;
const open: FileMemoryStore[] = [];
const store = (options: Partial<ConstructorParameters<typeof FileMemoryStore>[0]> = {}) => {
  const created = new FileMemoryStore({ dataPath, clock: new ManualClock('2026-03-01T12:00:00Z'), ...options });
  open.push(created);
  return created;
};

beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-memory-files-'));
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  rmSync(dataPath, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

describe('FileMemoryStore on disk', () => {
  it('writes one schema-valid JSON file per entry at memory/<category>/<id>.json', async () => {
    const memory = store();
    const a = await memory.save({ content: 'Lives in Chicago', category: 'user-preferences/timezone' });
    const b = await memory.save({ content: 'Uses pnpm' });
    const file = join(dataPath, 'memory', 'user-preferences', 'timezone', `${a.id}.json`);
    expect(memoryEntrySchema.parse(JSON.parse(readFileSync(file, 'utf8')))).toEqual(a);
    expect(existsSync(join(dataPath, 'memory', 'general', `${b.id}.json`))).toBe(true);
  });

  it('moves the file when the category changes and removes it on delete', async () => {
    const memory = store();
    const entry = await memory.save({ content: 'Deploys on Tuesdays', category: 'project-context/ops' });
    await memory.save({ ...entry, category: 'project-context/release' });
    expect(existsSync(join(dataPath, 'memory', 'project-context', 'ops', `${entry.id}.json`))).toBe(false);
    expect(existsSync(join(dataPath, 'memory', 'project-context', 'release', `${entry.id}.json`))).toBe(true);
    await memory.delete(entry.id);
    expect(filesUnder(join(dataPath, 'memory')).filter((f) => f.endsWith(`${entry.id}.json`))).toEqual([]);
  });

  for (const [label, category] of HOSTILE_PATHS) {
    it(`writes nothing anywhere for a category with ${label}`, async () => {
      const memory = store();
      await expect(memory.save({ content: 'x', category })).rejects.toMatchObject({ code: 'INVALID_CATEGORY' });
      const outside = readdirSync(dataPath);
      expect(outside.filter((name) => name !== 'memory')).toEqual([]);
      expect(filesUnder(join(dataPath, 'memory')).filter((f) => f.endsWith('.json'))).toEqual([]);
    });
  }

  it('quarantines unreadable files with a warning and loads the rest', async () => {
    const seed = store();
    const good = await seed.save({ content: 'A good entry about gardening' });
    await seed.close();
    mkdirSync(join(dataPath, 'memory', 'general'), { recursive: true });
    writeFileSync(join(dataPath, 'memory', 'general', '0123456789ab.json'), '{"id": "0123456789ab", "content": "trunc');
    writeFileSync(join(dataPath, 'memory', 'general', 'abcdefabcdef.json'), JSON.stringify({ id: 'abcdefabcdef', content: 'no dates' }));
    const logger = new RecordingLogger();
    const memory = store({ logger });
    expect((await memory.list()).map((e) => e.id)).toEqual([good.id]);
    const quarantined = readdirSync(join(dataPath, 'memory', '.quarantine', 'general'));
    expect(quarantined).toHaveLength(2);
    expect(quarantined.some((name) => name.startsWith('0123456789ab.json.'))).toBe(true);
    expect(logger.records.filter((r) => r.level === 'warn' && /quarantine/.test(r.message))).toHaveLength(2);
  });

  it('keeps the newer copy when a crash mid-move left an entry in two categories', async () => {
    const seed = store();
    const entry = await seed.save({ content: 'Moved entry', category: 'old' });
    await seed.close();
    const newer = { ...entry, category: 'new', updatedAt: '2026-03-02T00:00:00.000Z' };
    mkdirSync(join(dataPath, 'memory', 'new'), { recursive: true });
    writeFileSync(join(dataPath, 'memory', 'new', `${entry.id}.json`), JSON.stringify(newer));
    const memory = store({ logger: new RecordingLogger() });
    expect(await memory.get(entry.id)).toEqual(newer);
    expect(await memory.listCategories()).toEqual([{ category: 'new', count: 1 }]);
    expect(existsSync(join(dataPath, 'memory', 'old', `${entry.id}.json`))).toBe(false);
  });

  it('ignores temporary files left by a write that never finished', async () => {
    mkdirSync(join(dataPath, 'memory', 'general'), { recursive: true });
    writeFileSync(join(dataPath, 'memory', 'general', '.0123456789ab.json.123.ab12.tmp'), '{"partial":');
    const memory = store();
    expect(await memory.list()).toEqual([]);
  });

  it('shows one instance what another instance on the same directory wrote', async () => {
    const a = store();
    const b = store();
    expect(await b.list()).toEqual([]);
    const saved = await a.save({ content: 'Shared across processes: the VPN needs MFA', category: 'project-context/it' });
    expect((await b.search({ text: 'vpn mfa' })).map((r) => r.entry.id)).toEqual([saved.id]);
    const updated = await b.save({ id: saved.id, content: 'The VPN needs MFA and a hardware key', category: 'project-context/it' });
    expect(await a.get(saved.id)).toEqual(updated);
    await a.delete(saved.id);
    expect(await b.get(saved.id)).toBeUndefined();
    expect(await b.listCategories()).toEqual([]);
  });

  it('refuses a write based on a stale read made in another instance', async () => {
    const a = store();
    const b = store();
    const saved = await a.save({ content: 'Version one' });
    const readByB = await b.get(saved.id);
    await a.save({ id: saved.id, content: 'Version two' });
    await expect(b.save({ id: saved.id, content: 'Stale' }, { ifUpdatedAt: readByB!.updatedAt })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect((await a.get(saved.id))?.content).toBe('Version two');
  });

  it('rejects bad options with INVALID_OPTIONS', () => {
    expect(() => new FileMemoryStore({ dataPath: '' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => new FileMemoryStore({ dataPath, minSimilarity: 2 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => new FileMemoryStore({ dataPath, synonyms: { flat: ['apartment'] } as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });
});

describe('FileMemoryStore weighs what a query points to besides words (SPEC M3)', () => {
  it('ranks an entry tagged with a name the query holds first, and one noted in a period it names, even past the text ranking’s best', async () => {
    const memory = store();
    const johns = await memory.save({ content: 'John set a goal for the season', tags: ['john'], createdAt: '2023-05-21T10:00:00Z' });
    await memory.save({
      content: 'Tim set a goal for the season, a goal for the team, a goal to write',
      tags: ['tim'],
      createdAt: '2023-05-22T10:00:00Z',
    });
    expect((await memory.search({ text: "What is John's goal for the season?" }))[0]!.entry.id).toBe(johns.id);
    // Sixty entries that match the question better, then the one noted in December 2023.
    for (let i = 0; i < 60; i++)
      await memory.save({ content: `Maria gave the shelter a donation, note ${i}`, createdAt: '2023-03-01T10:00:00Z' });
    const december = await memory.save({ content: 'Maria handed over her old car', createdAt: '2023-12-12T10:00:00Z' });
    const hits = await memory.search({ text: 'What did Maria give the shelter in December 2023?', maxResults: 5 });
    expect(hits[0]!.entry.id).toBe(december.id);
  });

  it('ranks as the in-memory reference store does', async () => {
    const memory = store();
    const reference = new InMemoryLongTermMemory({ clock: new ManualClock('2026-03-01T12:00:00Z') });
    const topics = ['pottery', 'camping', 'painting', 'kids', 'beach', 'adoption', 'counseling', 'parade'];
    for (let i = 0; i < 50; i++) {
      const draft = {
        content: `${i % 2 === 0 ? 'Melanie' : 'Caroline'} ${topics.filter((_, j) => (i + j) % 3 === 0).join(' and ')} ${i}`,
        tags: [i % 2 === 0 ? 'melanie' : 'caroline'],
        createdAt: `2023-0${1 + (i % 8)}-1${i % 5}T10:00:00Z`,
      };
      const saved = await memory.save(draft);
      await reference.save({ ...draft, id: saved.id });
    }
    for (const text of [
      'What pottery did Melanie make?',
      'When did Caroline go camping?',
      'kids beach in April 2023',
      'Caroline painting on 12 March 2023',
    ]) {
      const mine = (await memory.search({ text, maxResults: 6 })).map((hit) => [hit.entry.id, hit.score]);
      const theirs = (await reference.search({ text, maxResults: 6 })).map((hit) => [hit.entry.id, hit.score]);
      expect(mine, text).toEqual(theirs);
    }
  });
});

describe('FileMemoryStore with a thesaurus (SPEC M3)', () => {
  const thesaurus = (word: string): string[] => (word === 'flat' ? ['apartment'] : []);

  it('finds a memory through a synonym of the query’s words, below one holding the words themselves', async () => {
    const memory = store({ synonyms: thesaurus });
    const apartment = await memory.save({ content: 'Maya rents an apartment in Alfama' });
    const flat = await memory.save({ content: 'The flat has no dishwasher' });
    await memory.save({ content: 'Maya runs along the river' });
    expect((await memory.search({ text: 'flat' })).map((result) => result.entry.id)).toEqual([flat.id, apartment.id]);
    expect((await store().search({ text: 'flat' })).map((result) => result.entry.id)).toEqual([flat.id]);
  });

  it('expands the BM25 side of hybrid recall too', async () => {
    const memory = store({ synonyms: thesaurus, embedder: createFakeEmbedder() });
    const apartment = await memory.save({ content: 'Maya rents an apartment in Alfama' });
    await memory.flushEmbeddings();
    expect((await memory.search({ text: 'flat' })).map((result) => result.entry.id)).toEqual([apartment.id]);
  });
});

describe('FileMemoryStore hybrid recall', () => {
  const synonyms = { automobile: 'car', vehicle: 'car' };

  it('finds by meaning when words differ, once embeddings are ready', async () => {
    const embedder = createFakeEmbedder({ synonyms });
    const memory = store({ embedder });
    const car = await memory.save({ content: 'The car is parked in garage B' });
    await memory.save({ content: 'The bicycle is in the shed' });
    await memory.flushEmbeddings();
    expect((await memory.search({ text: 'automobile' })).map((r) => r.entry.id)).toEqual([car.id]);
    const results = await memory.search({ text: 'garage' });
    expect(results[0]?.entry.id).toBe(car.id);
    expect(results[0]!.score).toBeLessThanOrEqual(1);
  });

  it('caches vectors in the vector log, then in the matrix, and never re-embeds an unchanged entry', async () => {
    const embedder = createFakeEmbedder({ synonyms });
    const memory = store({ embedder });
    const entry = await memory.save({ content: 'Keys are under the doormat' });
    await memory.flushEmbeddings();
    const log = join(dataPath, 'memory', '.embeddings', '.vectors.log');
    expect(statSync(log).size).toBeGreaterThan(0);
    expect(embedder.embeddedTexts).toBe(1);
    await memory.close();
    // The matrix holds it now, and the log is empty.
    expect(existsSync(join(dataPath, 'memory', '.embeddings', '.matrix.bin'))).toBe(true);
    expect(statSync(log).size).toBe(0);

    const again = createFakeEmbedder({ synonyms });
    const reopened = store({ embedder: again });
    await reopened.flushEmbeddings();
    expect(again.calls.filter((call) => call.length > 0 && !call[0]!.startsWith('Keys'))).toEqual([]);
    expect(again.embeddedTexts).toBe(0);

    await reopened.save({ id: entry.id, content: 'Keys are in the drawer now' });
    await reopened.flushEmbeddings();
    expect(again.embeddedTexts).toBe(1);
  });

  it('re-embeds everything when the model changes', async () => {
    const first = store({ embedder: createFakeEmbedder({ modelId: 'model-a' }) });
    await first.save({ content: 'one' });
    await first.save({ content: 'two' });
    await first.flushEmbeddings();
    await first.close();
    const other = createFakeEmbedder({ modelId: 'model-b' });
    const reopened = store({ embedder: other });
    await reopened.flushEmbeddings();
    expect(other.embeddedTexts).toBe(2);
  });

  it('removes the cached vector with the entry', async () => {
    const memory = store({ embedder: createFakeEmbedder() });
    const entry = await memory.save({ content: 'short lived' });
    await memory.flushEmbeddings();
    await memory.delete(entry.id);
    await memory.flushEmbeddings();
    expect(existsSync(join(dataPath, 'memory', '.embeddings', `${entry.id}.bin`))).toBe(false);
  });

  it('falls back to BM25 when the embedder fails, and says so', async () => {
    const logger = new RecordingLogger();
    const memory = store({ embedder: createFakeEmbedder({ fail: true }), logger });
    const entry = await memory.save({ content: 'The car is parked in garage B' });
    await memory.flushEmbeddings();
    expect((await memory.search({ text: 'garage' })).map((r) => r.entry.id)).toEqual([entry.id]);
    expect(logger.records.some((r) => r.level === 'warn' && /Embedding failed/.test(r.message))).toBe(true);
  });
});

describe('names unique without regard to case (SPEC M2)', () => {
  it('refuses a category that differs only in case from an existing one, and a skill likewise', async () => {
    const { FileSkillStore } = await import('../skills/file-skill-store');
    const dataPath = mkdtempSync(join(tmpdir(), 'reverie-case-'));
    try {
      const memory = new FileMemoryStore({ dataPath });
      await memory.save({ content: 'Quarterly goals', category: 'work/planning' });
      await expect(memory.save({ content: 'Standup notes', category: 'Work/meetings' })).rejects.toMatchObject({
        code: 'INVALID_CATEGORY',
        message: expect.stringContaining('differs only in case from the existing "work"'),
      });
      await memory.save({ content: 'Standup notes', category: 'work/meetings' });
      const moved = await memory.save({ content: 'Quarterly goals', category: 'work/planning' });
      expect(await memory.save({ id: moved.id, content: 'Quarterly goals', category: 'WORK2' })).toMatchObject({ category: 'WORK2' });
      await memory.close();

      const skills = new FileSkillStore({ dataPath });
      await skills.save({ name: 'mcp/email', summary: 'Send mail.', content: 'Use the tool.' });
      await expect(skills.save({ name: 'MCP/Email', summary: 'Send mail.', content: 'Use the tool.' })).rejects.toMatchObject({
        code: 'INVALID_NAME',
      });
      await skills.save({ name: 'mcp/email', summary: 'Send mail, revised.', content: 'Use the tool.' });
      expect((await skills.list()).map((skill) => skill.name)).toEqual(['mcp/email']);
      await skills.close();
    } finally {
      rmSync(dataPath, { recursive: true, force: true });
    }
  });
});
