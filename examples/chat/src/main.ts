import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { loadModel } from '@reverie/cli';
import { createReverie, type Reverie, type WrappableModel } from 'reverie';
import { chatSession, dreamBetweenSessions } from './chat-session';
import { runScriptedChat } from './scripted-chat';
import { scriptedChatModel } from './scripted-model';

// REVERIE_MODEL (openai:<model>, anthropic:<model>, ollama:<model>, <base-url>#<model>), read as
// the `reverie` CLI reads it, makes this an interactive chat with a real model. Without it a
// scripted model plays three short sessions offline, with a restart in the middle of one. With a
// real model, the session goes on across restarts too: run it again with the same REVERIE_DATA
// and REVERIE_SESSION. REVERIE_DATA keeps the agent's data.
let loaded: Awaited<ReturnType<typeof loadModel>>;
try {
  loaded = await loadModel(process.env);
} catch (error) {
  console.error(`chat: ${(error as Error).message}`);
  process.exit(2);
}
const dataPath = process.env.REVERIE_DATA ?? mkdtempSync(join(tmpdir(), 'reverie-chat-'));
const open = () =>
  createReverie({ dataPath, ...(loaded ? { model: loaded.model } : {}) })
    .withMemory()
    .withWorkingMemory()
    .withConversationLog()
    .withFeedback()
    .withDreaming({ initialDelay: '10m', interval: '4h' })
    .build();
console.log(`Reverie chat — data in ${dataPath} — model: ${loaded ? loaded.label : 'offline script (set REVERIE_MODEL for a real one)'}\n`);

let reverie: Reverie;
if (!loaded) {
  ({ reverie } = await runScriptedChat(open, scriptedChatModel(), (line) => console.log(line)));
} else {
  reverie = open();
  // The schedule dreams while the user is away; this example also runs a cycle at each /new.
  await reverie.dreams.start();
  const model = loaded.model as WrappableModel;
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  console.log('Type a message. /new ends the session and dreams; /quit leaves (the session stays open for the next run).\n');
  let number = 1;
  let sessionId = process.env.REVERIE_SESSION ?? `session-${number}`;
  let session = chatSession(reverie, model, sessionId, (delta) => process.stdout.write(delta));
  for (;;) {
    const line = (await terminal.question('you> ').catch(() => '/quit')).trim();
    if (line === '/quit') break;
    if (line === '/new') {
      await session.end();
      await dreamBetweenSessions(reverie, (text) => console.log(text));
      number += 1;
      sessionId = `session-${number}-${Date.now().toString(36)}`;
      session = chatSession(reverie, model, sessionId, (delta) => process.stdout.write(delta));
      continue;
    }
    if (line === '') continue;
    process.stdout.write('agent> ');
    await session.send(line);
    process.stdout.write('\n');
  }
  terminal.close();
  await reverie.idle();
  console.log(
    `\n(Session ${sessionId} stays open: REVERIE_DATA=${dataPath} REVERIE_SESSION=${sessionId} continues it, turns and recalled memories included.)`,
  );
}

console.log('\nMemory on disk:');
for (const entry of await reverie.memory!.list()) {
  console.log(`  [${entry.id}] (${entry.category}) ${entry.content} — seen ${entry.reinforcementCount}×`);
}
await reverie.close();
