import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createReverie } from 'reverie';
import { inProcessDatabase } from './database';
import { serveUsers, STORIES } from './serve-users';

it('serves two users from one database, each with their own memory and dream cycle', async () => {
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-multi-user-test-'));
  const pglite = await inProcessDatabase();
  const scopes = createReverie({ dataPath }).withPostgres({ pglite }).withMemory().withConversationLog().withDreaming().buildScopes();
  try {
    const [alice, bob] = await serveUsers(scopes, STORIES);
    expect(alice!.recalled.length).toBeGreaterThan(0);
    expect(alice!.recalled.every((content) => /alice/i.test(content))).toBe(true);
    expect(bob!.recalled.length).toBeGreaterThan(0);
    expect(bob!.recalled.every((content) => /bob/i.test(content))).toBe(true);
    // Alice's two wordings of one preference were merged by her cycle; Bob's memory was not touched.
    expect([alice!.entriesBefore, alice!.entriesAfter]).toEqual([3, 2]);
    expect([bob!.entriesBefore, bob!.entriesAfter]).toEqual([2, 2]);
    expect(await scopes.list()).toEqual(['user:alice', 'user:bob']);
    await expect(scopes.get('user:bob').dreams.undo(alice!.runId)).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
    await scopes.get('user:alice').dreams.undo(alice!.runId);
    expect(await scopes.get('user:alice').memory!.list()).toHaveLength(3);
  } finally {
    await scopes.close();
    await pglite.close();
    rmSync(dataPath, { recursive: true, force: true });
  }
});
