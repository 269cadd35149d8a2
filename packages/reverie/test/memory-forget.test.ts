import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, type MemoryEntry } from '@reverie/core';
import { postgresClientFromPglite } from '@reverie/postgres';
import { createReverie, FORGOTTEN_CATEGORY, type Reverie, withReverie } from 'reverie';
import { useBuilderPglite } from './builder-pglite';
import { textReply } from './scripted-model';

// SPEC B14, soft forget end to end: out of recall and the per-turn context at once, undoable,
// not learnt again, on the file store and on PostgreSQL (PGlite).
let dataPath: string;
let reverie: Reverie | undefined;
const clock = new ManualClock('2026-06-01T00:00:00Z');
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-forget-'));
});
afterEach(async () => {
  await reverie?.close();
  reverie = undefined;
  rmSync(dataPath, { recursive: true, force: true });
});

const FACTS = [
  'The user’s sister Alice got divorced in March',
  'Alice Smith moved to Porto last year',
  'The user prefers tea over coffee',
  'The deploy window is Tuesday',
];

/** The entries outside `_system/`, sorted by id. */
async function userEntries(instance: Reverie): Promise<MemoryEntry[]> {
  return (await instance.memory!.list()).filter((entry) => !entry.category.startsWith('_system')).sort((a, b) => a.id.localeCompare(b.id));
}

/** Forgets everything about Alice, checks what is left and what the record keeps, undoes it, and checks all is back. */
async function forgetAndUndo(instance: Reverie): Promise<string> {
  const memory = instance.memory!;
  for (const content of FACTS) await memory.save({ content, category: 'people' });
  const before = await userEntries(instance);
  const [alice1, alice2, tea, deploy] = FACTS.map((content) => before.find((entry) => entry.content === content)!);

  const receipt = await memory.forget({ subject: 'alice' });
  expect(receipt).toMatchObject({ mode: 'soft', notFound: [], changed: [], checked: 4, factsRecorded: 3 });
  expect(receipt.forgotten.map((entry) => entry.id).sort()).toEqual([alice1!.id, alice2!.id].sort());
  expect(await memory.recall({ text: 'Alice' })).toEqual([]);
  expect(await memory.search({ text: 'divorced Porto' })).toEqual([]);
  expect(await userEntries(instance)).toEqual([tea, deploy].sort((a, b) => a!.id.localeCompare(b!.id)));
  const context = await instance.context.forTurn({ sessionId: 's', message: 'What do you know about Alice and her divorce?' });
  expect(context.systemPrompt.toLowerCase()).not.toContain('alice');

  // The record of what was forgotten holds keyed hashes, never a word of it.
  const [record] = await memory.list({ category: FORGOTTEN_CATEGORY });
  for (const word of ['alice', 'divorc', 'porto', 'sister', 'smith']) expect(record!.content.toLowerCase()).not.toContain(word);

  const undone = await instance.dreams.undo(receipt.runId!);
  expect(undone.restored.sort()).toEqual([`memory ${alice1!.id}`, `memory ${alice2!.id}`].sort());
  expect(await userEntries(instance)).toEqual(before);
  expect(await memory.list({ category: FORGOTTEN_CATEGORY })).toEqual([]);
  expect((await memory.recall({ text: 'Alice' })).length).toBe(2);
  return receipt.runId!;
}

describe('reverie.memory.forget, soft, on the file store', () => {
  it('takes a subject out of recall and the per-turn context at once, and undo brings it back', async () => {
    reverie = createReverie({ dataPath, clock, logger: 'silent' }).withMemory().build();
    await forgetAndUndo(reverie);
  });

  it('forgets by ids and by text in any letter case, says which ids it did not find, and refuses Reverie’s own entries', async () => {
    reverie = createReverie({ dataPath, clock, logger: 'silent' }).withMemory().build();
    const memory = reverie.memory!;
    const tea = await memory.save({ content: 'The user prefers tea over coffee' });
    const deploy = await memory.save({ content: 'The deploy window is Tuesday' });
    const byText = await memory.forget({ text: 'TEA OVER coffee' });
    expect(byText.forgotten).toEqual([{ id: tea.id, category: 'general' }]);
    const byIds = await memory.forget({ ids: [deploy.id, '0123456789ab'] });
    expect(byIds).toMatchObject({ forgotten: [{ id: deploy.id }], notFound: ['0123456789ab'] });
    expect(await userEntries(reverie)).toEqual([]);
    expect(await memory.forget({ subject: 'tea' })).toMatchObject({ forgotten: [], checked: 0 });
    expect((await memory.forget({ subject: 'nothing' })).runId).toBeUndefined();

    const [record] = await memory.list({ category: FORGOTTEN_CATEGORY });
    await expect(memory.forget({ ids: [record!.id] })).rejects.toMatchObject({ code: 'INVALID_CATEGORY' });
    await expect(memory.forget({ text: 'x', subject: 'y' } as never)).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await expect(memory.forget({ ids: [deploy.id] }, { mode: 'shred' } as never)).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });

  it('is the forget_memory tool of the agent', async () => {
    reverie = createReverie({ dataPath, clock, logger: 'silent' }).withMemory().build();
    const saved = await reverie.memory!.save({ content: 'The user’s sister Alice got divorced in March' });
    const tool = reverie.tools.memory().forget_memory;
    const options = { toolCallId: 'call-1', messages: [] };
    expect(await tool.execute!({ subject: 'Alice divorce' }, options)).toMatchObject({ forgotten: 1, ids: [saved.id], notFound: [] });
    expect(await tool.execute!({ text: 'a', subject: 'b' }, options)).toMatchObject({ error: 'INVALID_INPUT' });
    expect(await userEntries(reverie)).toEqual([]);
  });
});

describe('a forgotten fact is not learnt again', () => {
  const fixtures = fileURLToPath(new URL('../src/extraction/__fixtures__/', import.meta.url));
  const exchange = JSON.parse(readFileSync(join(fixtures, 'peanut-snack.exchange.json'), 'utf8')) as {
    turns: Array<{ content: string; timestamp: string }>;
  };
  const reply = readFileSync(join(fixtures, 'peanut-snack.reply.txt'), 'utf8');

  it('by fact extraction from a later conversation', async () => {
    const [user, assistant] = exchange.turns;
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) =>
        textReply(
          prompt.some((message) => message.role === 'system' && message.content.includes('long-term memory')) ? reply : assistant!.content,
        ),
    });
    reverie = createReverie({ dataPath, model, clock: new ManualClock(user!.timestamp), logger: 'silent' })
      .withMemory({ extract: 'turn' })
      .withConversationLog()
      .build();
    const allergy = await reverie.memory!.save({ content: 'The user has a peanut allergy.' });
    await reverie.memory!.forget({ ids: [allergy.id] });

    await generateText({ model: withReverie(model, { reverie, sessionId: 'flight' }), prompt: user!.content });
    await reverie.idle();
    expect((await userEntries(reverie)).map((entry) => entry.content)).toEqual(['The user is vegetarian.']);
  });
});

describe('reverie.memory.forget, soft, on PostgreSQL', () => {
  const database = useBuilderPglite();

  it('takes a subject out of recall at once, keeps no word of it in the record, and undo brings it back', async () => {
    reverie = createReverie({ dataPath, clock, scope: 'forget', logger: 'silent' })
      .withPostgres({ pglite: database() })
      .withMemory()
      .build();
    const runId = await forgetAndUndo(reverie);
    expect(await postgresClientFromPglite(database()).query("SELECT run_id FROM reverie_dream_runs WHERE scope = 'forget'")).toEqual([
      { run_id: runId },
    ]);
  });
});
