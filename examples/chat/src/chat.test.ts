import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createReverie } from 'reverie';
import { runScriptedChat } from './scripted-chat';
import { scriptedChatModel } from './scripted-model';

it('saves memories through the tools, keeps the allergy in context across turns and a restart, merges the duplicate in a dream, recalls both later', async () => {
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-chat-test-'));
  const open = () =>
    createReverie({ dataPath, logger: 'silent' })
      .withMemory()
      .withWorkingMemory()
      .withConversationLog()
      .withFeedback()
      .withDreaming()
      .build();
  const lines: string[] = [];
  const { replies, reverie } = await runScriptedChat(open, scriptedChatModel(), (line) => lines.push(line));
  try {
    expect(replies.slice(0, 3)).toEqual([
      'Noted — I will remember that.',
      'Noted — I will remember that.',
      'Noted — I will remember that.',
    ]);
    // Tuesday: the allergy recalled for the snack question stays in context on the next turn, and after the restart.
    expect(replies[3]).toMatch(/^How about .*\? No peanuts: you are allergic to them\.$/);
    expect(replies[4]).toMatch(/^How about .*\? No peanuts: you are allergic to them\.$/);
    expect(lines).toContain('~ restart: the process stops and a new one opens the same data directory');
    expect(replies[5]).toMatch(/^How about .*\? No peanuts: you are allergic to them\.$/);
    // Wednesday.
    expect(replies[6]).toMatch(/^From memory: .*metric units/);
    expect(replies[6]).toContain('allergic to peanuts');
    const entries = await reverie.memory!.list();
    expect(entries.map((entry) => [entry.content, entry.reinforcementCount]).sort()).toEqual([
      ['I am allergic to peanuts.', 1],
      ['I prefer metric units.', 2],
    ]);
    expect(lines.some((line) => /✓ memory-consolidation — [1-9]/.test(line))).toBe(true);
    const tuesday = await reverie.conversationLog!.read({ sessionId: 'tuesday' });
    expect(tuesday.map((turn) => turn.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  } finally {
    await reverie.close();
    rmSync(dataPath, { recursive: true, force: true });
  }
});
