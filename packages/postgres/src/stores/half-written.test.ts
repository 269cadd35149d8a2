import { ManualClock } from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { PostgresConversationLog } from '../conversation-log/postgres-conversation-log';
import { PostgresSkillStore } from '../skills/postgres-skill-store';
import { PostgresWorkingMemory } from '../working-memory/postgres-working-memory';
import { failingOn } from '../../test/failing-client';
import { usePgliteClient } from '../../test/test-databases';

/** What a scope's search counts hold: documents, total length, and each term's df. */
async function counts(client: ReturnType<ReturnType<typeof usePgliteClient>>, family: 'skill' | 'working_memory', scope: string) {
  const [stats] = await client.query(`SELECT entries, total_length FROM reverie_${family}_stats WHERE scope = $1`, [scope]);
  const terms = await client.query(`SELECT term, df FROM reverie_${family}_terms WHERE scope = $1 ORDER BY term`, [scope]);
  return { stats, terms };
}

describe('a write that fails midway leaves nothing behind', () => {
  const client = usePgliteClient();
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');

  it('in the skill store: neither the skill nor its search counts change', async () => {
    const scope = 'user:skills';
    const store = new PostgresSkillStore({ client: client(), scope, clock });
    const kept = await store.save({ name: 'git/rebase', summary: 'Rebase onto main', content: 'git fetch then rebase' });
    const before = await counts(client(), 'skill', scope);
    const failing = new PostgresSkillStore({ client: failingOn(client(), (sql) => sql.includes('reverie_skill_terms')), scope, clock });
    await expect(failing.save({ name: 'git/rebase', summary: 'Rebase onto main', content: 'something else entirely' })).rejects.toThrow(
      'injected failure',
    );
    await expect(failing.save({ name: 'deploy/prod', summary: 'Deploy', content: 'ship it' })).resolves.toBeDefined();
    await expect(failing.delete('deploy/prod')).resolves.toBe(true);
    expect(await store.list()).toEqual([kept]);
    expect(await counts(client(), 'skill', scope)).toEqual(before);
    expect((await store.search({ text: 'fetch' })).map((hit) => hit.skill.name)).toEqual(['git/rebase']);
  });

  it('in working memory: neither the entry, an eviction nor the counts change', async () => {
    const scope = 'user:working';
    const store = new PostgresWorkingMemory({ client: client(), scope, clock, maxEntriesPerNamespace: 1, sweepIntervalMs: 0 });
    const kept = await store.set('session/s1/a', 'first value');
    const before = await counts(client(), 'working_memory', scope);
    const failing = new PostgresWorkingMemory({
      client: failingOn(client(), (sql) => sql.includes('char_length')),
      scope,
      clock,
      maxEntriesPerNamespace: 1,
      sweepIntervalMs: 0,
    });
    await expect(failing.set('session/s1/b', 'second value')).rejects.toThrow('injected failure');
    expect(await store.list()).toEqual([kept]);
    expect(await counts(client(), 'working_memory', scope)).toEqual(before);
  });

  it('in the conversation log: no turn, and no seq lost', async () => {
    const scope = 'user:log';
    const failing = new PostgresConversationLog({
      client: failingOn(client(), (sql) => sql.includes('INSERT INTO reverie_conversation_turns')),
      scope,
      clock,
    });
    await expect(failing.append({ sessionId: 's', role: 'user', content: 'lost' })).rejects.toThrow('injected failure');
    const turn = await failing.append({ sessionId: 's', role: 'user', content: 'kept' });
    expect(turn.seq).toBe(1);
    expect((await failing.read()).map((t) => t.content)).toEqual(['kept']);
  });
});
