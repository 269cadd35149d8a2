import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, type MemoryEntry } from '@reverie/core';
import { ancestorRecord } from '@reverie/core/internal';
import { DreamLock } from '@reverie/file-store/internal';
import { postgresClientFromPglite } from '@reverie/postgres';
import { createReverie, FORGOTTEN_CATEGORY, type Reverie } from 'reverie';
import { filesHolding, filesUnder } from './__fixtures__/files-holding';
import { useBuilderPglite } from './builder-pglite';

// SPEC B14, forget with mode 'erase', end to end on the file store and on PostgreSQL (PGlite):
// afterwards no file under the data directory (binary ones included) and no row of the scope holds
// the erased text in any letter case, every unrelated entry is as it was, and what is left is the
// tombstone of keyed hashes.
const SECRET = 'Alice keeps a pet QUOKKA named Zephyrine';
const clock = new ManualClock('2026-06-01T00:00:00Z');
let dataPath: string;
let reverie: Reverie | undefined;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-erase-'));
});
afterEach(async () => {
  await reverie?.close();
  reverie = undefined;
  rmSync(dataPath, { recursive: true, force: true });
});

const userEntries = async (instance: Reverie): Promise<MemoryEntry[]> =>
  (await instance.memory!.list()).filter((entry) => !entry.category.startsWith('_system')).sort((a, b) => a.id.localeCompare(b.id));

/**
 * Fills the instance with the secret in every place Reverie copies text to: the entry, a second
 * entry stating it (soft-forgotten, so a run folder archives it), an entry merged from it (its
 * lineage keeps an excerpt), the conversation log and a cleared part of it, recall events; and with
 * unrelated entries and turns. Returns the ids that matter.
 */
async function fill(instance: Reverie) {
  const memory = instance.memory!;
  const secret = await memory.save({ content: SECRET, category: 'people' });
  const copy = await memory.save({ content: `${SECRET.toLowerCase()}, she said`, category: 'people' });
  const soft = await memory.forget({ ids: [copy.id] });
  const merged = await memory.save({
    content: 'A friend of the user has an unusual pet',
    category: 'people',
    lineage: {
      origin: { kind: 'merge' },
      ancestors: [ancestorRecord(secret, 'merged', 'aaaaaaaaaaaa', { at: clock.now().toISOString() })],
    },
  });
  const tea = await memory.save({ content: 'The user prefers tea over coffee' });
  const deploy = await memory.save({ content: 'Deploys go out on Tuesdays', category: 'work' });
  const log = instance.conversationLog!;
  const at = clock.now().toISOString();
  await log.append({ sessionId: 's1', role: 'user', content: SECRET, timestamp: at });
  await log.clear();
  await log.append({ sessionId: 's2', role: 'user', content: `By the way: ${SECRET.toUpperCase()}!`, timestamp: at });
  await log.append({ sessionId: 's2', role: 'user', content: 'I take the 8:15 train', timestamp: at });
  await memory.recall({ text: 'quokka Zephyrine' });
  await instance.context.forTurn({ sessionId: 's2', message: SECRET });
  return { secret, copy, soft, merged, tea, deploy };
}

/** Erases the secret and checks the receipt, the entries left, the tombstone and the refused undo. */
async function eraseAndCheck(instance: Reverie, held: () => Promise<string[]>, beforeErase?: (id: string) => Promise<void>) {
  const { secret, soft, merged, tea, deploy } = await fill(instance);
  await instance.idle();
  await beforeErase?.(secret.id);
  expect((await held()).length).toBeGreaterThan(1);
  const unrelated = [tea, deploy].map((entry) => entry.id);
  const before = (await userEntries(instance)).filter((entry) => unrelated.includes(entry.id));

  const receipt = await instance.memory!.forget({ text: 'zephyrine' }, { mode: 'erase' });
  expect(receipt.mode).toBe('erase');
  expect(receipt.forgotten).toEqual([{ id: secret.id, category: 'people' }]);
  expect(receipt.rewritten).toEqual([merged.id]);
  expect(receipt.factsRecorded).toBe(2);
  expect(receipt.places.length).toBeGreaterThan(1);
  expect(receipt.runsNoLongerUndoable).toEqual([soft.runId]);

  expect(await held()).toEqual([]);
  const left = await userEntries(instance);
  expect(left.filter((entry) => unrelated.includes(entry.id))).toEqual(before);
  const kept = left.find((entry) => entry.id === merged.id)!;
  expect(kept.content).toBe(merged.content);
  expect(kept.lineage?.ancestors ?? []).toEqual([]);
  expect(left.map((entry) => entry.id).sort()).toEqual([merged.id, ...unrelated].sort());
  const turns = await instance.conversationLog!.read();
  expect(turns.map((turn) => turn.content)).toEqual(['I take the 8:15 train']);
  await instance.conversationLog!.append({ sessionId: 's3', role: 'user', content: 'still logging', timestamp: clock.now().toISOString() });
  expect((await instance.conversationLog!.read()).map((turn) => turn.content)).toEqual(['I take the 8:15 train', 'still logging']);

  // What is left: the tombstones, keyed hashes only, with no erasure under way.
  const tombstones = await instance.memory!.list({ category: FORGOTTEN_CATEGORY });
  expect(tombstones).toHaveLength(2);
  for (const tombstone of tombstones) expect(tombstone.content).not.toContain('"erasing"');
  // Undo of the soft forget's run, whose archive held the text, is refused and says why.
  await expect(instance.dreams.undo(soft.runId!)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/erased/) });
  const hits = await instance.memory!.recall({ text: 'quokka Zephyrine' });
  expect(hits.filter((hit) => JSON.stringify(hit).toLowerCase().includes('zephyrine'))).toEqual([]);
  // The tombstone refuses the fact coming back through an import, unless the user says otherwise.
  const memoryFile = `# People\n\n- ${SECRET.toLowerCase()}\n`;
  expect((await instance.import(memoryFile, { format: 'markdown', dryRun: true })).memories).toMatchObject({
    created: 0,
    refusedForgotten: 1,
  });
  expect((await instance.import(memoryFile, { format: 'markdown', dryRun: true, allowForgotten: true })).memories).toMatchObject({
    created: 1,
  });
  // Erasing again finds nothing.
  expect((await instance.memory!.forget({ text: 'zephyrine' }, { mode: 'erase' })).forgotten).toEqual([]);
  return secret.id;
}

describe("reverie.memory.forget(selector, { mode: 'erase' }) on the file store", () => {
  it('leaves no file holding the text, in any letter case, binary files included, and the rest as it was', async () => {
    // A toy embedder, so that the store keeps vectors (the vector log, the matrix) of every entry.
    const embedder = {
      modelId: 'letters',
      embed: async (texts: string[]) => texts.map((text) => [text.length % 7, (text.charCodeAt(0) % 5) + 1, 1]),
    };
    reverie = createReverie({ dataPath, clock, logger: 'silent', embedder }).withMemory().withConversationLog().withDreaming().build();
    const held = async () => filesHolding(dataPath, SECRET, 'zephyrine');
    // The binary files (the vector log and matrix, the snapshot) naming an entry: its vector or its text.
    const binaryNaming = (id: string) =>
      filesUnder(dataPath).filter((file) => !/\.(json|jsonl|md)$/.test(file) && readFileSync(file).includes(Buffer.from(id, 'latin1')));
    const erased = await eraseAndCheck(reverie, held, async (id) => {
      await reverie!.idle();
      for (let tries = 0; binaryNaming(id).length === 0 && tries < 50; tries++) await new Promise((wait) => setTimeout(wait, 20));
      expect(binaryNaming(id).length).toBeGreaterThan(0);
    });
    expect(binaryNaming(erased)).toEqual([]);
    await reverie.close();
    // A fresh open reads the same memory (the snapshot it had was removed).
    reverie = createReverie({ dataPath, clock, logger: 'silent' }).withMemory().withConversationLog().build();
    expect((await userEntries(reverie)).map((entry) => entry.content).sort()).toEqual(
      ['A friend of the user has an unusual pet', 'Deploys go out on Tuesdays', 'The user prefers tea over coffee'].sort(),
    );
    expect(filesHolding(dataPath, 'zephyrine')).toEqual([]);
  });

  it('is refused with LOCK_HELD, writing nothing, while a dream run holds the scope', async () => {
    reverie = createReverie({ dataPath, clock, logger: 'silent' }).withMemory().build();
    const secret = await reverie.memory!.save({ content: SECRET });
    const other = await new DreamLock({ dataPath, clock }).acquire('elsewhere');
    await expect(reverie.memory!.forget({ ids: [secret.id] }, { mode: 'erase' })).rejects.toMatchObject({ code: 'LOCK_HELD' });
    expect(await reverie.memory!.list()).toEqual([secret]);
    await other.release();
    expect((await reverie.memory!.forget({ ids: [secret.id] }, { mode: 'erase' })).forgotten).toEqual([
      { id: secret.id, category: 'general' },
    ]);
  });

  it('rewrites a merge from the sources it keeps whole, without the erased one, instead of erasing it', async () => {
    reverie = createReverie({ dataPath, clock, logger: 'silent' }).withMemory().build();
    const memory = reverie.memory!;
    const secret = await memory.save({ content: SECRET, category: 'people' });
    const porto = await memory.save({ content: 'Alice lives in Porto', category: 'people' });
    const merged = await memory.save({
      content: `${SECRET}; she lives in Porto`,
      category: 'people',
      lineage: {
        origin: { kind: 'merge' },
        ancestors: [secret, porto].map((source) => ancestorRecord(source, 'merged', 'aaaaaaaaaaaa', { at: clock.now().toISOString() })),
        passages: [secret.content, porto.content],
      },
    });
    const receipt = await memory.forget({ ids: [secret.id] }, { mode: 'erase' });
    expect(receipt.forgotten).toEqual([{ id: secret.id, category: 'people' }]);
    expect(receipt.rewritten).toEqual([merged.id]);
    const kept = await memory.get(merged.id);
    expect(kept?.content).toBe('Alice lives in Porto');
    expect(kept?.lineage?.ancestors?.map((ancestor) => ancestor.id)).toEqual([porto.id]);
    expect(kept?.lineage?.passages).toEqual(['Alice lives in Porto']);
    expect((await memory.search({ text: 'Porto' })).map((hit) => hit.entry.id)).toContain(merged.id);
    expect(filesHolding(dataPath, 'zephyrine', 'quokka')).toEqual([]);
  });

  it('refuses a mode it does not know', async () => {
    reverie = createReverie({ dataPath, clock, logger: 'silent' }).withMemory().build();
    await expect(reverie.memory!.forget({ text: 'x y' }, { mode: 'shred' as 'erase' })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

describe("reverie.memory.forget(selector, { mode: 'erase' }) on PostgreSQL", () => {
  const pglite = useBuilderPglite();

  it('leaves no row of the scope holding the text, in any letter case, and no file either', async () => {
    reverie = createReverie({ dataPath, clock, logger: 'silent', scope: 'alice' })
      .withPostgres({ pglite: pglite() })
      .withMemory()
      .withConversationLog()
      .withDreaming()
      .build();
    const client = postgresClientFromPglite(pglite());
    /** Every row of every Reverie table of the scope, as JSON text. */
    const dump = async () => {
      const tables = await client.query<{ name: string }>(
        "SELECT DISTINCT table_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name LIKE 'reverie\\_%' AND column_name = 'scope'",
      );
      const rows: string[] = [];
      for (const { name } of tables) {
        for (const row of await client.query<{ json: string }>(
          `SELECT row_to_json(t)::text AS json FROM "${name}" t WHERE scope = 'alice'`,
        ))
          rows.push(`${name} ${row.json}`);
      }
      return rows;
    };
    const held = async () =>
      [...(await dump()), ...filesUnder(dataPath).map((file) => readFileSync(file).toString('latin1'))].filter(
        (text) => text.toLowerCase().includes('zephyrine') || text.toLowerCase().includes(SECRET.toLowerCase()),
      );
    await eraseAndCheck(reverie, held);
  });
});
