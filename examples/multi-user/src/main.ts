import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReverie } from 'reverie';
import { inProcessDatabase } from './database';
import { serveUsers, STORIES } from './serve-users';

// DATABASE_URL=postgres://… uses a real PostgreSQL server; without it, PGlite in this process.
const pglite = process.env.DATABASE_URL ? undefined : await inProcessDatabase();
const database = pglite ? { pglite } : { connectionString: process.env.DATABASE_URL! };

// One builder, one database, one client: every user's instance is built at its first request.
const scopes = createReverie({ dataPath: mkdtempSync(join(tmpdir(), 'reverie-multi-user-')) })
  .withPostgres(database)
  .withMemory()
  .withConversationLog()
  .withDreaming()
  .buildScopes();

console.log(`Reverie multi-user — ${pglite ? 'PGlite in process (set DATABASE_URL for a server)' : 'PostgreSQL at DATABASE_URL'}\n`);
for (const outcome of await serveUsers(scopes, STORIES)) {
  console.log(`${outcome.scope}`);
  for (const content of outcome.recalled) console.log(`  recalled: ${content}`);
  console.log(`  dream run ${outcome.runId}: ${outcome.entriesBefore} entries → ${outcome.entriesAfter}\n`);
}
console.log(`Scopes in the database: ${(await scopes.list()).join(', ')}`);
await scopes.close();
await pglite?.close();
