import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createReverie } from 'reverie';
import { runScriptedChat } from './scripted-chat';
import { scriptedChatModel } from './scripted-model';

it('saves memories through the tools, merges the duplicate in a dream, recalls both in a later session', async () => {
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-chat-test-'));
  const reverie = createReverie({ dataPath }).withMemory().withWorkingMemory().withConversationLog().withFeedback().withDreaming().build();
  try {
    const lines: string[] = [];
    const replies = await runScriptedChat(reverie, scriptedChatModel(), (line) => lines.push(line));

    expect(replies.slice(0, 3)).toEqual(['Noted — I will remember that.', 'Noted — I will remember that.', 'Noted — I will remember that.']);
    expect(replies[3]).toMatch(/^From memory: .*metric units/);
    expect(replies[3]).toContain('allergic to peanuts');
    const entries = await reverie.memory!.list();
    expect(entries.map((entry) => [entry.content, entry.reinforcementCount]).sort()).toEqual([
      ['I am allergic to peanuts.', 1],
      ['I prefer metric units.', 2],
    ]);
    expect(lines.some((line) => /✓ memory-consolidation — [1-9]/.test(line))).toBe(true);
    const logged = await reverie.conversationLog!.read({ sessionId: 'wednesday' });
    expect(logged.map((turn) => turn.role)).toEqual(['user', 'assistant']);
  } finally {
    await reverie.close();
    rmSync(dataPath, { recursive: true, force: true });
  }
});
