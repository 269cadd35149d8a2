import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, type MemoryEntry, memoryDocumentText, newId } from '@reverie/core';
import { createFakeEmbedder } from '@reverie/core/testing';
import { createReverie, type ExportOptions, type Reverie } from 'reverie';
import { useBuilderPglite } from './builder-pglite';

// SPEC B15: export and import end to end, on the file store and PostgreSQL (PGlite).
const clock = new ManualClock('2026-06-01T00:00:00Z');
let root: string;
const open: Reverie[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'reverie-export-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((instance) => instance.close()));
  rmSync(root, { recursive: true, force: true });
});

/** A file instance in a fresh folder under the test's root. */
function fileInstance(): Reverie {
  const instance = createReverie({ dataPath: mkdtempSync(join(root, 'files-')), clock, logger: 'silent' })
    .withMemory()
    .withSkills()
    .build();
  open.push(instance);
  return instance;
}

async function exported(instance: Reverie, options?: ExportOptions): Promise<string> {
  let text = '';
  for await (const line of instance.export(options)) text += line;
  return text;
}

/** An export's records without what a store stamps on write (`updatedAt`) and the header's time and scope. */
function comparable(text: string): unknown[] {
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .map((record) => {
      if (record.type === 'memory') return { ...record, entry: { ...(record.entry as MemoryEntry), updatedAt: undefined } };
      if (record.type === 'skill') return { ...record, skill: { ...(record.skill as object), updatedAt: undefined } };
      return record;
    });
}

const fixture = (name: string) => readFileSync(new URL(`../src/portability/__fixtures__/${name}`, import.meta.url), 'utf8');
const userEntries = async (instance: Reverie) => (await instance.memory!.list()).filter((entry) => !entry.category.startsWith('_system'));

describe('export and import on the file store', () => {
  it('imports a MEMORY.md as one run that undo takes back', async () => {
    const reverie = fileInstance();
    const report = await reverie.import(fixture('MEMORY.md'), { source: 'MEMORY.md' });
    expect(report).toMatchObject({ format: 'markdown', dryRun: false, memories: { created: 6 } });
    expect((await reverie.memory!.recall({ text: 'peanuts' }))[0]?.entry).toMatchObject({
      category: 'memory/preferences/food',
      lineage: { origin: { kind: 'import', source: 'MEMORY.md' } },
    });
    expect((await reverie.dreams.listRuns()).map((run) => run.runId)).toEqual([report.runId]);
    expect((await reverie.dreams.undo(report.runId!)).removed).toHaveLength(6);
    expect(await userEntries(reverie)).toEqual([]);
  });

  it('reads a mem0 list and a Letta agent file', async () => {
    const reverie = fileInstance();
    expect((await reverie.import(fixture('mem0-memories.json'), { source: 'mem0.json' })).memories.created).toBe(2);
    expect((await reverie.import(fixture('support-agent.af'), { source: 'support-agent.af' })).memories.created).toBe(4);
    expect((await userEntries(reverie)).map((entry) => entry.category).sort()).toEqual([
      'food',
      'general',
      'letta/archival',
      'letta/human',
      'letta/human',
      'letta/persona',
    ]);
  });

  it('refuses a file with any bad line, naming the lines, and writes nothing', async () => {
    const source = fileInstance();
    await source.memory!.save({ content: 'The user prefers tea' });
    await source.memory!.save({ content: 'Deploys go out on Tuesdays' });
    const lines = (await exported(source)).trim().split('\n');
    const target = fileInstance();
    const bad = [lines[0], lines[1], '{"type":"memory","entry":{"content":"x","category":"../../etc"}}', 'not json', lines[2], lines[3]];
    await expect(target.import(bad.join('\n'))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      details: { problems: [{ line: 3 }, { line: 4 }] },
    });
    await expect(target.import(lines.slice(0, 2).join('\n'))).rejects.toMatchObject({
      details: { problems: [{ line: 2, message: 'no end line: the file was cut short' }] },
    });
    await expect(target.import('- a\n# x\n- b', { format: 'mem0' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(target.import('x', { onConflict: 'overwrite' } as never)).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    expect(await target.memory!.list()).toEqual([]);
    expect(await target.dreams.listRuns()).toEqual([]);
  });

  it('keeps, replaces or merges an entry that exists; a dry run writes nothing', async () => {
    const reverie = fileInstance();
    const id = newId();
    await reverie.memory!.store.save({ id, content: 'The user likes tea', tags: ['drinks'], reinforcementCount: 2, importance: 0.4 });
    clock.advance(60_000);
    const other = fileInstance();
    await other.memory!.store.save({ id, content: 'The user likes green tea', tags: ['tea'], reinforcementCount: 1, importance: 0.9 });
    const file = await exported(other);

    expect((await reverie.import(file, { onConflict: 'replace', dryRun: true })).memories).toMatchObject({ replaced: 1 });
    expect((await reverie.import(file)).memories).toMatchObject({ skipped: 1, created: 0 });
    expect((await reverie.memory!.get(id))?.content).toBe('The user likes tea');
    const merged = await reverie.import(file, { onConflict: 'merge' });
    expect(merged.memories.merged).toBe(1);
    expect(await reverie.memory!.get(id)).toMatchObject({
      content: 'The user likes green tea',
      tags: ['drinks', 'tea'],
      reinforcementCount: 3,
      importance: 0.9,
    });
    await reverie.dreams.undo(merged.runId!);
    expect(await reverie.memory!.get(id)).toMatchObject({ content: 'The user likes tea', reinforcementCount: 2 });
  });

  it('carries tombstones: a fact forgotten in one place is refused by the import in another, unless allowed', async () => {
    const source = fileInstance();
    const divorce = await source.memory!.save({ content: 'Alice got divorced in March' });
    const file = await exported(source);
    await source.memory!.forget({ ids: [divorce.id] });
    const withTombstone = await exported(source);
    expect(withTombstone.toLowerCase()).not.toContain('divorc');

    const target = fileInstance();
    await target.import(withTombstone);
    expect((await target.import(file)).memories).toMatchObject({ refusedForgotten: 1, created: 0 });
    expect((await target.import(file, { allowForgotten: true })).memories.created).toBe(1);
  });
});

describe('vectors', () => {
  it('exports each entry’s vector tagged with the model id; an import checks them and embeds again', async () => {
    const embedder = createFakeEmbedder({ dimensions: 8 });
    const source = createReverie({ dataPath: mkdtempSync(join(root, 'vec-')), clock, embedder, logger: 'silent' })
      .withMemory()
      .build();
    open.push(source);
    const tea = await source.memory!.save({ content: 'The user prefers tea' });
    await source.memory!.save({ content: 'Deploys go out on Tuesdays' });
    let text = '';
    for await (const line of source.export({ vectors: true })) text += line;
    const vectors = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; id?: string; model?: string; vector?: number[] })
      .filter((record) => record.type === 'vector');
    expect(vectors).toHaveLength(2);
    expect(vectors.find((record) => record.id === tea.id)).toEqual({
      type: 'vector',
      id: tea.id,
      model: embedder.modelId,
      vector: (await embedder.embed([memoryDocumentText(tea)]))[0],
    });

    const target = fileInstance();
    expect(await target.import(text)).toMatchObject({ vectors: 2, memories: { created: 2 } });
    const orphan = text.replace(`"type":"vector","id":"${tea.id}"`, '"type":"vector","id":"0123456789ab"');
    await expect(fileInstance().import(orphan)).rejects.toMatchObject({
      details: { problems: [{ message: 'a vector of 0123456789ab, which is not a memory entry above it' }] },
    });
    await expect(exported(fileInstance(), { vectors: true })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

describe('a round trip: file store → PostgreSQL → file store', () => {
  const pglite = useBuilderPglite();

  const at = fc
    .integer({ min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2026-05-01T00:00:00Z') })
    .map((ms) => new Date(ms).toISOString());
  const word = fc.constantFrom('tea', 'Porto', 'constructor', '__proto__', 'Zoë', 'deploy', 'toString', '東京', 'hasOwnProperty');
  const entry = fc.record({
    content: fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' ')),
    category: fc.constantFrom('general', 'people', 'work/deploys', 'constructor', 'prefs/__proto__'),
    tags: fc.uniqueArray(fc.constantFrom('a', 'toString', 'valueOf', 'x-y'), { maxLength: 3 }),
    createdAt: at,
    importance: fc.double({ min: 0, max: 1, noNaN: true }),
    reinforcementCount: fc.integer({ min: 1, max: 9 }),
    ended: fc.option(fc.integer({ min: 1, max: 10_000_000 }), { nil: undefined }),
    lineage: fc.boolean(),
  });

  it('gives back the same memory and skills (ids, contents, times, validity, lineage)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 1e9 }), async (drafts, run) => {
        const first = fileInstance();
        for (const draft of drafts) {
          await first.memory!.store.save({
            id: newId(),
            content: draft.content,
            category: draft.category,
            tags: draft.tags,
            createdAt: draft.createdAt,
            lastSeenAt: draft.createdAt,
            importance: draft.importance,
            reinforcementCount: draft.reinforcementCount,
            ...(draft.ended === undefined
              ? {}
              : { validTo: new Date(Date.parse(draft.createdAt) + draft.ended).toISOString(), supersededBy: newId() }),
            ...(draft.lineage ? { lineage: { origin: { kind: 'tool' as const, tool: 'save_memory', at: draft.createdAt } } } : {}),
          });
        }
        await first.skills!.save({
          name: 'howto/deploy',
          summary: 'How to deploy',
          content: 'Run make deploy',
          seeAlso: [],
          lastUsedAt: null,
          createdAt: '2026-01-01T00:00:00.000Z',
        });
        const original = await exported(first);

        const database = createReverie({ dataPath: mkdtempSync(join(root, 'pg-')), clock, scope: `rt-${run}-${newId()}`, logger: 'silent' })
          .withPostgres({ pglite: pglite() })
          .withMemory()
          .withSkills()
          .build();
        open.push(database);
        const intoDatabase = await database.import(original);
        expect(intoDatabase.memories.created).toBe(drafts.length);
        const back = fileInstance();
        await back.import(await exported(database));
        expect(comparable(await exported(back))).toEqual(comparable(original));
      }),
      { numRuns: 6 },
    );
  }, 120_000);
});
