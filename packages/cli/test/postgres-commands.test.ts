import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CategoryCount, MemoryEntry, MemorySearchResult } from '@reverie/core';
import type { CycleReport } from '@reverie/dream';
import { PostgresConversationLog, postgresClientFromConnectionString } from '@reverie/postgres';
import { realServer, useRealDatabase } from '../../postgres/test/test-databases';
import { startOverloadedThenExtractingServer } from './__fixtures__/fake-chat-server';
import { expectOneLineError, runJson, runReverie, tempDir } from './__fixtures__/run-reverie';
import type { DreamStatus } from 'reverie';

type RunJson = CycleReport & { model: string | null; recovered: string[] };
interface ShowJson {
  manifest: { runId: string; status: string };
  journal: { applied: number; conflict: number; noop: number };
  artifacts: string[];
}

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

describe('reverie --postgres, refused before any statement', () => {
  it('refuses a value that is not a connection string (exit 2), from the option or REVERIE_DATABASE_URL', async () => {
    expectOneLineError(
      await runReverie(['--postgres', 'db.internal:5432', 'memory', 'list']),
      2,
      /--postgres must be a PostgreSQL connection string, postgres:\/\/USER:PASSWORD@HOST:5432\/DATABASE/,
    );
    expectOneLineError(
      await runReverie(['memory', 'list'], { env: { REVERIE_DATABASE_URL: 'mysql://u:secret@h/db' } }),
      2,
      /REVERIE_DATABASE_URL must be a PostgreSQL connection string, .*\(got "mysql:\/\/u:\*\*\*@h\/db"\)/,
    );
    expectOneLineError(
      await runReverie(['--postgres', 'postgres://127.0.0.1:5432/app', '--scope', 'user 42', 'memory', 'list']),
      2,
      /invalid --scope "user 42"/,
    );
  });

  it('says the database cannot be reached (exit 3), on one line, without the password', async () => {
    const result = await runReverie(['--postgres', 'postgres://reverie:secret@127.0.0.1:1/app', 'memory', 'list'], { cwd: dir.root });
    expectOneLineError(result, 3, /reverie: /);
    expect(result.stderr).not.toContain('secret');
  });
});

describe.skipIf(!realServer.url)('reverie --postgres on a real PostgreSQL server', () => {
  const database = useRealDatabase();
  const on = (scope: string) => ['--postgres', database(), '--scope', scope];

  it('adds, lists, searches, counts and deletes memories of one scope, never another, and writes no data directory', async () => {
    const options = { cwd: dir.root };
    const ana = await runJson<MemoryEntry>(
      [...on('user:ana'), 'memory', 'add', 'Ana wants answers in metric units', '--category', 'preferences/units'],
      options,
    );
    await runJson<MemoryEntry>([...on('user:ana'), 'memory', 'add', 'Ana deploys on Tuesdays'], options);
    const ben = await runJson<MemoryEntry>([...on('user:ben'), 'memory', 'add', 'Ben wants answers in imperial units'], options);

    expect((await runJson<MemoryEntry[]>([...on('user:ana'), 'memory', 'list'], options)).map((entry) => entry.content).sort()).toEqual([
      'Ana deploys on Tuesdays',
      'Ana wants answers in metric units',
    ]);
    expect(
      (await runJson<MemorySearchResult[]>([...on('user:ana'), 'memory', 'search', 'units'], options)).map((hit) => hit.entry.id),
    ).toEqual([ana.id]);
    expect(await runJson<CategoryCount[]>([...on('user:ben'), 'memory', 'categories'], options)).toEqual([
      { category: 'general', count: 1 },
    ]);
    const notThere = await runReverie([...on('user:ben'), 'memory', 'delete', ana.id], options);
    expectOneLineError(notThere, 4, new RegExp(`no memory ${ana.id} in scope user:ben of postgres://`));
    expect((await runReverie([...on('user:ben'), 'memory', 'delete', ben.id], options)).code).toBe(0);
    expect(await runJson([...on('user:ben'), 'memory', 'list'], options)).toEqual([]);
    // Without --scope: the scope "default", as .withPostgres() uses; REVERIE_DATABASE_URL stands for --postgres.
    await runJson([...on('default'), 'memory', 'add', 'Shared note'], options);
    expect(
      (await runJson<MemoryEntry[]>(['memory', 'list'], { ...options, env: { REVERIE_DATABASE_URL: database() } })).map(
        (entry) => entry.content,
      ),
    ).toEqual(['Shared note']);
    expect(readdirSync(dir.root)).toEqual([]);
  });

  it('runs, shows, undoes, plans and applies dream cycles of a scope from the database', async () => {
    const scope = on('user:dreamer');
    for (const content of [
      'The user prefers dark mode in every editor',
      'The user prefers dark mode in every editor',
      'The team deploys on Tuesdays',
    ]) {
      await runJson([...scope, 'memory', 'add', content, '--category', 'preferences']);
    }
    const contents = async () => (await runJson<MemoryEntry[]>([...scope, 'memory', 'list'])).map((entry) => entry.content).sort();
    const before = await contents();

    const run = await runJson<RunJson>([...scope, 'dream', 'run', '--pass', 'memory-consolidation']);
    expect(run.passes[0]).toMatchObject({ name: 'memory-consolidation', status: 'ok', applied: 3 });
    expect(await contents()).toEqual(['The team deploys on Tuesdays', 'The user prefers dark mode in every editor']);
    const shown = await runJson<ShowJson>([...scope, 'dream', 'show', 'latest']);
    expect(shown.manifest).toMatchObject({ runId: run.runId, status: 'complete' });
    expect(shown.journal).toEqual({ applied: 3, conflict: 0, noop: 0 });
    const status = await runJson<DreamStatus>([...scope, 'dream', 'status']);
    expect(status.lock).toEqual({ status: 'free' });
    expect(status.phases.find((phase) => phase.phase === 'rem')).toMatchObject({ runs: 1, applied: 3 });
    // Another scope of the database has no run.
    expectOneLineError(await runReverie([...on('user:other'), 'dream', 'show', 'latest']), 4, /no dream runs yet/);

    const undone = await runReverie([...scope, 'dream', 'undo', run.runId]);
    expect(undone.stdout, undone.stderr).toMatch(new RegExp(`^Undid dream run ${run.runId}: 2 restored, 1 removed, 0 kept\\.`));
    expect(await contents()).toEqual(before);
    expectOneLineError(await runReverie([...scope, 'dream', 'undo', 'ffffffffffff']), 4, /No dream run "ffffffffffff"/);

    const dry = await runJson<RunJson & { planId?: string }>([...scope, 'dream', 'run', '--dry-run', '--pass', 'memory-consolidation']);
    expect((await runReverie([...scope, 'dream', 'plans'])).stdout).toContain(`Plan ${dry.planId} — made `);
    const applied = await runReverie([...scope, 'dream', 'apply', dry.planId!]);
    expect(applied.stdout, applied.stderr).toContain(`Applied plan ${dry.planId}.`);
    expect(await contents()).toEqual(['The team deploys on Tuesdays', 'The user prefers dark mode in every editor']);
    expect(readdirSync(dir.root)).toEqual([]);
  });

  it('retries a failed run of a scope from its dead letter in the database', async () => {
    const client = postgresClientFromConnectionString(database());
    const log = new PostgresConversationLog({ client, scope: 'user:retry' });
    await log.append({ sessionId: 's1', role: 'user', content: 'I adopted a cat today, her name is Miso.' });
    await log.close();
    await client.close();
    const scope = on('user:retry');
    const today = new Date().toISOString().slice(0, 10);
    const server = await startOverloadedThenExtractingServer(today);
    try {
      const env = { REVERIE_MODEL: `${server.url}#test-model` };
      const first = await runReverie([...scope, 'dream', 'run', '--pass', 'episode-extraction', '--format', 'json'], { env });
      expect(first.code, first.stderr).toBe(1);
      const runId = (JSON.parse(first.stdout) as { runId: string }).runId;
      server.recover();
      const retried = await runReverie([...scope, 'dream', 'retry', runId, '--format', 'json'], { env });
      expect(retried.code, retried.stderr).toBe(0);
      expect((await runJson<MemoryEntry[]>([...scope, 'memory', 'list'])).map((entry) => entry.content)).toContain(
        'The user adopted a cat named Miso',
      );
      expectOneLineError(await runReverie([...scope, 'dream', 'retry', runId], { env }), 4, /dead letter|nothing to retry|not/i);
    } finally {
      await server.close();
    }
  });

  it('doctor checks the database instead of the files, and a named data directory must exist', async () => {
    const scope = on('user:doctor');
    await runJson([...scope, 'memory', 'add', 'Checked by the doctor']);
    const result = await runReverie([...scope, 'doctor'], { cwd: dir.root });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(result.stdout).toMatch(/— scope user:doctor of postgres:\/\/.*, directives from /);
    expect(result.stdout).toMatch(/^ {2}ok {4}database +reachable, schema up to date/m);
    expect(result.stdout).toMatch(/^ {2}ok {4}memory +1 entry in 1 category/m);
    expect(result.stdout).not.toContain('quarantine');
    expectOneLineError(
      await runReverie([...scope, '--data', join(dir.root, 'missing'), 'memory', 'list']),
      3,
      /no data directory at .*missing/,
    );
    expect(existsSync(join(dir.root, 'missing'))).toBe(false);
  });
});
