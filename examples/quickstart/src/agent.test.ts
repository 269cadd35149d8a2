import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createReverie } from 'reverie';
import { agentTurn } from './agent';
import { offlineModel } from './offline-model';

it('remembers a preference in one session and has it in context on every turn of the next', async () => {
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-quickstart-test-'));
  const reverie = createReverie({ dataPath }).withMemory().withWorkingMemory().withConversationLog().build();
  try {
    const model = reverie.trackActivity(offlineModel());
    expect(await agentTurn(reverie, model, 'monday', 'I always want answers in metric units, please.')).toBe(
      'Got it — I will remember that.',
    );
    expect(await agentTurn(reverie, model, 'tuesday', 'What units should you use when you answer me?')).toMatch(
      /From memory: .*metric units/,
    );
    expect(await agentTurn(reverie, model, 'tuesday', 'Remind me which units again?')).toMatch(/^From memory: .*metric units/);
    expect(await reverie.memory!.list()).toHaveLength(1);
  } finally {
    await reverie.close();
    rmSync(dataPath, { recursive: true, force: true });
  }
});
