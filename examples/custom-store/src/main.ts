import { isReverieError } from '@reverie/core';
import { MapBackend } from './key-value-backend';
import { KeyValueMemoryStore } from './key-value-memory-store';

// A tour of a custom long-term memory store: save, recall, update, refuse bad input, reopen.
const backend = new MapBackend();
const memory = new KeyValueMemoryStore({ backend });

const timezone = await memory.save({ content: 'The user lives in Chicago (UTC-6)', category: 'user-preferences/timezone' });
await memory.save({ content: 'Deploys go through the staging cluster first', category: 'project-context/release', tags: ['deploy'] });
await memory.save({
  content: "Don't run migrations on Fridays because rollback needs the DBA — instead schedule them Monday",
  category: 'anti-patterns/deploy',
  tags: ['anti-pattern', 'deploy'],
});

console.log('Saved 3 memories. Categories:');
for (const { category, count } of await memory.listCategories()) console.log(`  ${category}: ${count}`);

console.log('\nRecall for "when should I deploy?":');
for (const { entry, score } of await memory.search({ text: 'when should I deploy?' })) {
  console.log(`  [${entry.id}] (${entry.category}) ${entry.content}  score=${score.toFixed(2)}`);
}

await memory.save({ id: timezone.id, content: 'The user moved to Lisbon (UTC+0)', category: 'user-preferences/timezone' });
console.log('\nAfter an update, "timezone" recalls:', (await memory.search({ text: 'timezone' }))[0]?.entry.content);

try {
  await memory.save({ content: 'sneaky', category: '../../etc' });
} catch (error) {
  if (isReverieError(error)) console.log(`\nBad input is refused: ${error.code} — ${error.message}`);
}

await memory.close();
const reopened = new KeyValueMemoryStore({ backend });
console.log(`\nReopened over the same backend: ${(await reopened.list()).length} memories still there.`);
await reopened.close();
console.log('\nThe dream cycle demo (consolidation, skills, undo) arrives with the dream engine; see README.');
