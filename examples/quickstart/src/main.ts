import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openai } from '@ai-sdk/openai';
import { createReverie } from 'reverie';
import { agentTurn } from './agent';
import { offlineModel } from './offline-model';

// With OPENAI_API_KEY set this talks to a real model; without it, to a scripted offline one.
const model = process.env.OPENAI_API_KEY ? openai(process.env.OPENAI_MODEL ?? 'gpt-4.1-mini') : offlineModel();
const dataPath = process.env.REVERIE_DATA ?? mkdtempSync(join(tmpdir(), 'reverie-quickstart-'));

const reverie = createReverie({ dataPath, ...(process.env.OPENAI_API_KEY ? { model } : {}) })
  .withMemory()
  .withWorkingMemory()
  .withConversationLog()
  .build();
const agent = reverie.trackActivity(model as Parameters<typeof reverie.trackActivity>[0]);

console.log(
  `Reverie quickstart — data in ${dataPath} — model: ${process.env.OPENAI_API_KEY ? 'OpenAI' : 'offline (set OPENAI_API_KEY for a real one)'}\n`,
);
for (const [sessionId, message] of [
  ['monday', 'I always want answers in metric units, please.'],
  ['tuesday', 'What units should you use when you answer me?'],
  ['tuesday', 'Remind me which units again?'],
] as const) {
  console.log(`[${sessionId}] user: ${message}`);
  console.log(`[${sessionId}] agent: ${await agentTurn(reverie, agent, sessionId, message)}\n`);
}

console.log('Memory on disk:');
for (const entry of await reverie.memory!.list()) console.log(`  [${entry.id}] (${entry.category}) ${entry.content}`);
console.log('\nDream passes a cycle would run with this setup:');
for (const pass of reverie.dreams.plan())
  console.log(`  ${pass.status === 'would-run' ? '✓' : '·'} ${pass.name}${pass.reason ? ` — ${pass.reason}` : ''}`);
await reverie.close();
