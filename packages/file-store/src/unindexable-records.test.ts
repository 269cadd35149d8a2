import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Bm25Index, ManualClock } from '@reverie/core';
import { FileMemoryStore } from './memory/file-memory-store';
import { FileSkillStore } from './skills/file-skill-store';
import { FileWorkingMemory } from './working-memory/file-working-memory';

/**
 * SPEC M2: any word is data. A memory holding "constructor" once made the text analysis throw,
 * which made the store unreadable for good: these tests hold the stores to opening such data,
 * and to setting aside (never losing, never serving half-indexed) a record the index cannot take.
 */

let dataPath: string;
const clock = () => new ManualClock('2026-03-01T12:00:00Z');
const closers: Array<{ close(): Promise<void> }> = [];
const track = <T extends { close(): Promise<void> }>(store: T): T => {
  closers.push(store);
  return store;
};

beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-unindexable-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const store of closers.splice(0)) await store.close();
  rmSync(dataPath, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

/** An index that, like the one before the fix, throws on a text holding "poison". */
function poisonTheIndex(): void {
  const refuse = (text: string) => {
    if (text.includes('poison')) throw new TypeError('word.toLowerCase is not a function');
  };
  const set = Bm25Index.prototype.set;
  vi.spyOn(Bm25Index.prototype, 'check').mockImplementation(refuse);
  vi.spyOn(Bm25Index.prototype, 'set').mockImplementation(function (this: Bm25Index, id: string, text: string) {
    refuse(text);
    set.call(this, id, text);
  });
}

describe('a data directory written before the fix opens and works', () => {
  it('memory entries and a working-memory namespace holding "constructor", "__proto__" and "toString"', async () => {
    const entry = {
      id: 'c0c0c0c0c0c0',
      content: 'Call the constructor of the class, then toString and valueOf on __proto__',
      category: 'general',
      tags: ['constructor', '__proto__'],
      createdAt: '2026-02-01T10:00:00.000Z',
      updatedAt: '2026-02-01T10:00:00.000Z',
      lastSeenAt: '2026-02-01T10:00:00.000Z',
      reinforcementCount: 1,
      importance: 0.5,
      metadata: { constructor: 'x', toString: 'y' },
    };
    mkdirSync(join(dataPath, 'memory', 'general'), { recursive: true });
    writeFileSync(join(dataPath, 'memory', 'general', `${entry.id}.json`), JSON.stringify(entry, null, 2));
    writeFileSync(
      join(dataPath, 'memory', '.changes.jsonl'),
      `${JSON.stringify({ op: 'put', key: entry.id, path: `general/${entry.id}.json` })}\n`,
    );
    const stored = {
      key: 'session/s1/constructor',
      value: 'the constructor runs first',
      storedAt: '2026-03-01T11:59:00.000Z',
      expiresAt: '2026-03-01T12:30:00.000Z',
      tags: ['hasOwnProperty'],
    };
    mkdirSync(join(dataPath, 'working-memory', 'session'), { recursive: true });
    writeFileSync(join(dataPath, 'working-memory', 'session', 's1.json'), JSON.stringify({ schemaVersion: 1, entries: [stored] }));

    const memory = track(new FileMemoryStore({ dataPath, clock: clock() }));
    expect((await memory.list()).map((e) => e.id)).toEqual([entry.id]);
    expect((await memory.search({ text: 'constructor' })).map((hit) => hit.entry.id)).toEqual([entry.id]);
    expect((await memory.search({ text: 'toString valueOf' })).map((hit) => hit.entry.id)).toEqual([entry.id]);
    expect((await memory.get(entry.id))?.metadata).toEqual({ constructor: 'x', toString: 'y' });
    const next = await memory.save({ content: 'A hasOwnProperty check guards the lookup', tags: ['valueOf'] });
    const reopened = track(new FileMemoryStore({ dataPath, clock: clock() }));
    expect((await reopened.list()).map((e) => e.id).sort()).toEqual([entry.id, next.id].sort());
    expect((await reopened.search({ text: 'hasOwnProperty' }))[0]?.entry.id).toBe(next.id);

    const working = track(new FileWorkingMemory({ dataPath, clock: clock() }));
    expect((await working.get('session/s1/constructor'))?.value).toBe('the constructor runs first');
    expect((await working.search({ text: 'constructor', prefix: 'session/s1' })).map((hit) => hit.entry.key)).toEqual([
      'session/s1/constructor',
    ]);
    await working.set('session/s2/toString', 'valueOf __proto__');
    expect((await working.list('session/s2')).map((e) => e.key)).toEqual(['session/s2/toString']);
  });
});

describe('a record the index cannot take is set aside, and the store serves the rest', () => {
  it('memory: a save fails with INTERNAL and writes nothing; an entry already on disk is quarantined at the next open', async () => {
    const memory = track(new FileMemoryStore({ dataPath, clock: clock() }));
    const kept = await memory.save({ content: 'The user likes tea' });
    poisonTheIndex();
    await expect(memory.save({ content: 'A poison pill' })).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(filesUnder(join(dataPath, 'memory')).filter((file) => file.endsWith('.json'))).toEqual([`general/${kept.id}.json`]);
    expect((await memory.search({ text: 'tea' }))[0]?.entry.id).toBe(kept.id);

    const hidden = { ...kept, id: 'dddddddddddd', content: 'Another poison pill' };
    writeFileSync(join(dataPath, 'memory', 'general', 'dddddddddddd.json'), JSON.stringify(hidden));
    const reopened = track(new FileMemoryStore({ dataPath, clock: clock() }));
    expect((await reopened.list()).map((e) => e.id)).toEqual([kept.id]);
    const aside = filesUnder(join(dataPath, 'memory', '.quarantine'));
    expect(aside).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dataPath, 'memory', '.quarantine', aside[0]!), 'utf8')).content).toBe('Another poison pill');
    expect((await reopened.save({ content: 'Still saving' })).content).toBe('Still saving');
  });

  it('skills: the same', async () => {
    const skills = track(new FileSkillStore({ dataPath, clock: clock() }));
    await skills.save({ name: 'mail/send', summary: 'Send mail', content: 'Use the SMTP relay' });
    poisonTheIndex();
    await expect(skills.save({ name: 'mail/poison', summary: 'poison', content: 'x' })).rejects.toMatchObject({ code: 'INTERNAL' });
    writeFileSync(
      join(dataPath, 'skills', 'mail', 'other.json'),
      JSON.stringify({ ...(await skills.get('mail/send'))!, name: 'mail/other', summary: 'a poison skill' }),
    );
    const reopened = track(new FileSkillStore({ dataPath, clock: clock() }));
    expect((await reopened.list()).map((skill) => skill.name)).toEqual(['mail/send']);
    expect(filesUnder(join(dataPath, 'skills', '.quarantine'))).toHaveLength(1);
  });

  it('working memory: a set fails with INTERNAL; an entry already in a group file is kept aside and its neighbours are served', async () => {
    const working = track(new FileWorkingMemory({ dataPath, clock: clock() }));
    await working.set('session/s1/good', 'fine');
    poisonTheIndex();
    await expect(working.set('session/s1/bad', 'a poison value')).rejects.toMatchObject({ code: 'INTERNAL' });
    const file = join(dataPath, 'working-memory', 'session', 's1.json');
    const group = JSON.parse(readFileSync(file, 'utf8')) as { schemaVersion: number; entries: Array<Record<string, unknown>> };
    expect(group.entries.map((entry) => entry.key)).toEqual(['session/s1/good']);
    group.entries.push({ ...group.entries[0]!, key: 'session/s1/hidden', value: 'another poison value' });
    writeFileSync(file, JSON.stringify(group));
    const reopened = track(new FileWorkingMemory({ dataPath, clock: clock() }));
    expect((await reopened.list('session/s1')).map((entry) => entry.key)).toEqual(['session/s1/good']);
    const aside = filesUnder(join(dataPath, 'working-memory', '.quarantine'));
    expect(aside).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dataPath, 'working-memory', '.quarantine', aside[0]!), 'utf8')).records[0].entry.value).toBe(
      'another poison value',
    );
    await reopened.set('session/s1/after', 'still works');
    expect((await reopened.list('session/s1')).map((entry) => entry.key).sort()).toEqual(['session/s1/after', 'session/s1/good']);
  });
});
