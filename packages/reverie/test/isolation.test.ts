import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recallEventsPath } from '@reverie/file-store/internal';
import { createReverie, type Reverie } from 'reverie';

/**
 * Issue "Hardening" item 4: two instances in one process share nothing — not stores, not search
 * indexes, not the per-session injection filter, not recall events, not dream runs — and
 * working-memory namespaces keep writes and listings apart within one instance.
 */
type Tool = { execute?: (input: unknown, options: { toolCallId: string; messages: [] }) => unknown };
const call = async <T>(tool: unknown, input: unknown) => (await (tool as Tool).execute!(input, { toolCallId: 'c1', messages: [] })) as T;

let root: string;
const open: Reverie[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'reverie-isolation-'));
});
afterEach(async () => {
  for (const reverie of open.splice(0)) await reverie.close();
  rmSync(root, { recursive: true, force: true });
});
const build = (name: string) => {
  const reverie = createReverie({ dataPath: join(root, name) })
    .withMemory()
    .withWorkingMemory()
    .withSkills()
    .withConversationLog()
    .withDreaming({ enabled: false })
    .build();
  open.push(reverie);
  return reverie;
};

describe('two instances in one process', () => {
  it('never see each other’s memories, skills, logs, caches, recall events or dream runs', async () => {
    const a = build('a');
    const b = build('b');
    await a.memory!.save({ content: 'Alice prefers tea in the morning.' });
    await b.memory!.save({ content: 'Bob prefers coffee in the morning.' });
    await a.memory!.save({ content: 'Alice prefers tea in the morning!' });
    await a.skills!.save({ name: 'drinks/tea', summary: 'Make tea.', content: 'Boil water.' });

    // Search indexes and listings are per instance (warm both caches first).
    expect((await a.memory!.search({ text: 'morning' })).map((r) => r.entry.content).sort()).toEqual([
      'Alice prefers tea in the morning!',
      'Alice prefers tea in the morning.',
    ]);
    expect((await b.memory!.search({ text: 'morning' })).map((r) => r.entry.content)).toEqual(['Bob prefers coffee in the morning.']);
    expect(await b.skills!.list()).toEqual([]);
    const hits = await call<Array<{ content: string }>>(b.tools.memory().search_memory, { query: 'tea' });
    expect(hits).toEqual([]);

    // The per-session injection filter is per instance: the same session id in both recalls its own.
    const turnA = await a.context.forTurn({ sessionId: 'shared-id', message: 'What does the user drink in the morning?' });
    const turnB = await b.context.forTurn({ sessionId: 'shared-id', message: 'What does the user drink in the morning?' });
    expect(turnA.systemPrompt).toContain('Alice');
    expect(turnA.systemPrompt).not.toContain('Bob');
    expect(turnB.systemPrompt).toContain('Bob');
    expect(turnB.systemPrompt).not.toContain('Alice');
    expect((await a.conversationLog!.read()).map((t) => t.sessionId)).toEqual(['shared-id']);
    expect((await b.conversationLog!.read()).map((t) => t.content)).toEqual(['What does the user drink in the morning?']);

    // A dream run in one merges its own duplicates and leaves the other directory alone.
    await a.dreams.run({ trigger: 'test' });
    expect((await a.memory!.list()).filter((e) => /Alice/.test(e.content))).toHaveLength(1);
    expect((await b.memory!.list()).map((e) => e.content)).toEqual(['Bob prefers coffee in the morning.']);
    expect(existsSync(join(root, 'b', '_system', 'dreams', 'runs'))).toBe(false);
    expect(readdirSync(join(root, 'a', '_system', 'dreams', 'runs'))).toHaveLength(1);
    await b.close();
    expect(existsSync(recallEventsPath(join(root, 'b')))).toBe(true);
    await a.close();
    expect(existsSync(recallEventsPath(join(root, 'a')))).toBe(true);
  });
});

describe('working-memory namespaces in one instance', () => {
  it('keep writes in the caller’s namespace and listings to it unless another is asked for by name', async () => {
    const reverie = build('wm');
    const alice = reverie.tools.workingMemory({ namespace: 'session/alice' });
    const bob = reverie.tools.workingMemory({ namespace: 'session/bob' });
    await call(alice.save_to_working_memory, { key: 'draft', data: 'Alice’s draft' });
    await call(bob.save_to_working_memory, { key: 'draft', data: 'Bob’s draft' });

    expect(await call(alice.get_from_working_memory, { key: 'draft' })).toMatchObject({ value: 'Alice’s draft' });
    expect(await call(bob.get_from_working_memory, { key: 'draft' })).toMatchObject({ value: 'Bob’s draft' });
    const listed = await call<unknown>(bob.list_working_memory, {});
    expect(JSON.stringify(listed)).toContain('session/bob/draft');
    expect(JSON.stringify(listed)).not.toContain('session/alice');
    const searched = await call<unknown>(bob.search_working_memory, { query: 'draft' });
    expect(JSON.stringify(searched)).not.toContain('Alice');
    // Writing into another namespace is refused, and nothing is written.
    const refused = await call<{ error?: string }>(bob.save_to_working_memory, { key: 'session/alice/draft', data: 'overwritten' });
    expect(JSON.stringify(refused)).toMatch(/own namespace/);
    expect(await call(alice.get_from_working_memory, { key: 'draft' })).toMatchObject({ value: 'Alice’s draft' });

    // Each user turn's context lists its own namespace only.
    const aliceTurn = await reverie.context.forTurn({ sessionId: 'alice', message: 'hello' });
    expect(aliceTurn.systemPrompt).toContain('draft');
    const carol = await reverie.context.forTurn({ sessionId: 'carol', message: 'hello' });
    expect(carol.systemPrompt ?? '').not.toContain('session/alice');
    expect(carol.systemPrompt ?? '').not.toContain('session/bob');
  });
});
