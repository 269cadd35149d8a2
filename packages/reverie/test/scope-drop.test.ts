import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@reverie/core';
import { postgresClientFromPglite } from '@reverie/postgres';
import { createReverie, type ReverieScopes } from 'reverie';
import { filesHolding, filesUnder } from './__fixtures__/files-holding';
import { useBuilderPglite } from './builder-pglite';

// SPEC B14: reverie.scopes.drop(scope) removes every file or row of the scope, and nothing else.
const clock = new ManualClock('2026-06-01T00:00:00Z');
const SECRET = 'Alice keeps a pet QUOKKA named Zephyrine';
let dataPath: string;
let scopes: ReverieScopes | undefined;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-drop-'));
});
afterEach(async () => {
  await scopes?.close();
  scopes = undefined;
  rmSync(dataPath, { recursive: true, force: true });
});

/** Gives `scope` memories, a forget (a dream run whose archive holds the text) and a conversation turn. */
async function fill(instances: ReverieScopes, scope: string, text: string): Promise<void> {
  const reverie = instances.get(scope);
  const kept = await reverie.memory!.save({ content: text });
  const forgotten = await reverie.memory!.save({ content: `${text}, said twice` });
  await reverie.memory!.forget({ ids: [forgotten.id] });
  await reverie.conversationLog!.append({ sessionId: 's', role: 'user', content: text, timestamp: clock.now().toISOString() });
  expect(await reverie.memory!.get(kept.id)).toBeDefined();
}

describe('scopes.drop on the file stores', () => {
  it('removes every file of the scope, binary ones included, and leaves the other scope as it was', async () => {
    scopes = createReverie({ dataPath, clock, logger: 'silent' }).withMemory().withConversationLog().buildScopes();
    await fill(scopes, 'alice', SECRET);
    await fill(scopes, 'bob', 'Bob takes the 8:15 train');
    await scopes.closeScope('bob');
    expect(filesHolding(dataPath, 'quokka').length).toBeGreaterThan(1);
    const bobFiles = filesUnder(join(dataPath, 'scopes', 'bob')).map((file) => [file, readFileSync(file).toString('base64')]);

    expect(await scopes.drop('alice')).toEqual({ scope: 'alice', found: true });
    expect(filesHolding(dataPath, 'quokka')).toEqual([]);
    expect(filesHolding(dataPath, 'zephyrine')).toEqual([]);
    expect(await scopes.list()).toEqual(['bob']);
    expect(filesUnder(join(dataPath, 'scopes', 'bob')).map((file) => [file, readFileSync(file).toString('base64')])).toEqual(bobFiles);
    expect(await scopes.get('alice').memory!.list()).toEqual([]);
    expect((await scopes.get('bob').memory!.recall({ text: 'train' })).length).toBe(1);
    expect(await scopes.drop('carol')).toEqual({ scope: 'carol', found: false });
    await expect(scopes.drop('../bob')).rejects.toMatchObject({ code: 'INVALID_SCOPE' });
  });

  it('finishes a drop a crash interrupted after the rename: the next list() deletes the folder left aside', async () => {
    scopes = createReverie({ dataPath, clock, logger: 'silent' }).withMemory().buildScopes();
    await scopes.get('bob').memory!.save({ content: 'Bob takes the 8:15 train' });
    const aside = join(dataPath, 'scopes', '#dropping-alice-0123456789ab', 'memory');
    mkdirSync(aside, { recursive: true });
    writeFileSync(join(aside, 'entry.json'), JSON.stringify({ content: SECRET }));
    expect(await scopes.list()).toEqual(['bob']);
    expect(filesHolding(dataPath, 'quokka')).toEqual([]);
  });
});

describe('scopes.drop on PostgreSQL', () => {
  const pglite = useBuilderPglite();

  it('removes every row of the scope from every table, in any letter case, and no other scope’s', async () => {
    scopes = createReverie({ dataPath, clock, logger: 'silent' })
      .withPostgres({ pglite: pglite() })
      .withMemory()
      .withConversationLog()
      .buildScopes();
    await fill(scopes, 'alice', SECRET);
    await fill(scopes, 'bob', 'Bob takes the 8:15 train');
    const client = postgresClientFromPglite(pglite());
    /** Every row of every Reverie table as JSON text, each with its table: a dump of the database. */
    const dump = async () => {
      const tables = await client.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'reverie\\_%'",
      );
      const rows: string[] = [];
      for (const { name } of tables) {
        for (const row of await client.query<{ json: string }>(`SELECT row_to_json(t)::text AS json FROM "${name}" t`))
          rows.push(`${name} ${row.json}`);
      }
      return rows;
    };
    expect((await dump()).filter((row) => row.toLowerCase().includes('quokka')).length).toBeGreaterThan(1);
    const bobRows = (await dump()).filter((row) => row.includes('"scope":"bob"')).sort();

    const report = await scopes.drop('alice');
    expect(report).toMatchObject({ scope: 'alice', rows: expect.any(Number), tables: expect.any(Number) });
    expect((report as { rows: number }).rows).toBeGreaterThan(4);
    const after = await dump();
    expect(after.filter((row) => row.toLowerCase().includes('quokka') || row.toLowerCase().includes('zephyrine'))).toEqual([]);
    expect(after.filter((row) => row.includes('"scope":"alice"'))).toEqual([]);
    expect(after.filter((row) => row.includes('"scope":"bob"')).sort()).toEqual(bobRows);
    expect(await scopes.list()).toEqual(['bob']);
  });
});
