import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { InMemoryWorkingMemory, ManualClock, TOKENS } from '@reverie/core';
import { createFakeEmbedder } from '@reverie/core/testing';
import { postgresClientFromPglite } from '@reverie/postgres';
import { createReverie } from 'reverie';
import { loadPostgres } from '../src/builder/load-postgres';
import { createPglite } from '../../postgres/test/test-databases';
import { buildIfStale } from './built-packages';

// `.withPostgres()` loads @reverie/postgres through its CommonJS build, as an application does.
beforeAll(() => buildIfStale(['core', 'dream-state', 'file-store', 'dream', 'postgres']), 600_000);

let db: PGlite;
let dataPath: string;
const clock = new ManualClock('2026-06-01T00:00:00Z');
beforeAll(async () => {
  db = await createPglite();
}, 60_000);
afterAll(async () => db.close());
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-pg-builder-'));
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

const rows = (sql: string, params: unknown[] = []) => postgresClientFromPglite(db).query(sql, params);

describe('withPostgres()', () => {
  it('keeps memory and the dream state in PostgreSQL under the scope "default" when the instance has none', async () => {
    const reverie = createReverie({ dataPath, clock }).withPostgres({ pglite: db }).withMemory().withDreaming({ enabled: false }).build();
    try {
      expect(reverie.scope).toBe('default');
      expect(reverie.dataPath).toBe(dataPath);
      const saved = await reverie.memory!.save({ content: 'The user keeps a cat named Miso' });
      expect(await rows("SELECT id FROM reverie_memory WHERE scope = 'default'")).toEqual([{ id: saved.id }]);
      const report = await reverie.dreams.run();
      expect(await rows("SELECT run_id FROM reverie_dream_runs WHERE scope = 'default'")).toEqual([{ run_id: report.runId }]);
      expect((await reverie.dreams.status()).passes.length).toBeGreaterThan(0);
      expect(await reverie.dreams.lockState()).toEqual({ status: 'free' });
    } finally {
      await reverie.close();
    }
  });

  it("reads what a run changed and an entry's history from the dream state in PostgreSQL", async () => {
    const reverie = createReverie({ dataPath, clock, scope: 'changes' })
      .withPostgres({ pglite: db })
      .withMemory()
      .withDreaming({ enabled: false })
      .build();
    try {
      const first = await reverie.memory!.save({ content: 'The deploy window is Tuesday' });
      await reverie.memory!.save({ content: 'the deploy window is tuesday.' });
      const report = await reverie.dreams.run({ phase: 'rem' });
      const [merged] = await reverie.memory!.list();
      const changes = await reverie.dreams.changes(report.runId);
      expect(changes.map((change) => change.action).sort()).toEqual(['created', 'deleted', 'deleted']);
      expect(changes.find((change) => change.key === first.id)).toMatchObject({
        action: 'deleted',
        before: { content: 'The deploy window is Tuesday' },
      });
      expect(await reverie.dreams.history({ kind: 'memory', key: merged!.id })).toEqual([
        expect.objectContaining({ runId: report.runId, action: 'created', runStatus: 'complete' }),
      ]);
      expect((await reverie.dreams.ledger()).some((line) => line.runId === report.runId)).toBe(true);
    } finally {
      await reverie.close();
    }
  });

  it('moves old unrecalled entries to the cold tier with tier-migration, keeps them searchable, and undo brings them back (SPEC B13)', async () => {
    const tierClock = new ManualClock('2026-01-01T00:00:00Z');
    const reverie = createReverie({ dataPath, clock: tierClock, scope: 'tiers' })
      .withPostgres({ pglite: db })
      .withMemory()
      .withDreaming({ enabled: false, tiers: { enabled: true } })
      .build();
    try {
      const old = await reverie.memory!.save({ content: 'The user once rented a flat in Ghent' });
      tierClock.advance(60 * 86_400_000);
      const fresh = await reverie.memory!.save({ content: 'The user rents a flat in Leuven now' });
      const report = await reverie.dreams.run({ pass: 'tier-migration' });
      expect(report.passes[0]).toMatchObject({ name: 'tier-migration', status: 'ok', applied: 1 });
      expect(await rows("SELECT id, tier FROM reverie_memory WHERE scope = 'tiers' ORDER BY tier")).toEqual([
        { id: old.id, tier: 'cold' },
        { id: fresh.id, tier: 'hot' },
      ]);
      expect((await reverie.memory!.search({ text: 'flat', tiers: 'hot' })).map((hit) => hit.entry.id)).toEqual([fresh.id]);
      expect((await reverie.memory!.search({ text: 'flat Ghent', tiers: 'all' })).map((hit) => hit.entry.tier)).toContain('cold');
      expect(await reverie.dreams.tiers()).toMatchObject({ hot: 1, cold: 1, tiered: true, enabled: true });
      await reverie.dreams.undo(report.runId);
      expect(await reverie.memory!.list({ tier: 'cold' })).toEqual([]);
    } finally {
      await reverie.close();
    }
  });

  it('uses the instance scope, and keeps a store given with `store` or .use()', async () => {
    const workingMemory = new InMemoryWorkingMemory({ clock });
    const reverie = createReverie({ dataPath, clock, scope: 'user:42' })
      .withPostgres({ pglite: db })
      .withMemory()
      .withWorkingMemory({ store: workingMemory })
      .build();
    try {
      await reverie.memory!.save({ content: 'Prefers green tea' });
      expect(await rows("SELECT content FROM reverie_memory WHERE scope = 'user:42'")).toEqual([{ content: 'Prefers green tea' }]);
      expect(reverie.workingMemory).toBe(workingMemory);
    } finally {
      await reverie.close();
    }
    const used = createReverie({ dataPath, clock })
      .withPostgres({ pglite: db })
      .withConversationLog()
      .use(TOKENS.ConversationLog, {
        append: async () => undefined,
        read: async () => [],
        clear: async () => 0,
        close: async () => undefined,
      })
      .build();
    await used.close();
  });

  it('puts every concern enabled with with…() on PostgreSQL, in the instance scope', async () => {
    const reverie = createReverie({ dataPath, clock, scope: 'team:all' })
      .withPostgres({ pglite: db })
      .withMemory()
      .withWorkingMemory()
      .withSkills()
      .withConversationLog()
      .withFeedback()
      .withWorkflowLog()
      .build();
    try {
      await reverie.workingMemory!.set('session/s1/topic', 'invoices');
      await reverie.conversationLog!.append({ sessionId: 's1', role: 'user', content: 'Where are the invoices?' });
      await reverie.workflowLog!.append({ description: 'Send the invoices', success: true });
      expect(await rows("SELECT count(*)::int AS n FROM reverie_working_memory WHERE scope = 'team:all'")).toEqual([{ n: 1 }]);
      expect(await rows("SELECT content FROM reverie_conversation_turns WHERE scope = 'team:all'")).toEqual([
        { content: 'Where are the invoices?' },
      ]);
      expect(await rows("SELECT count(*)::int AS n FROM reverie_workflow_executions WHERE scope = 'team:all'")).toEqual([{ n: 1 }]);
      const stores = [
        reverie.memory?.store,
        reverie.workingMemory,
        reverie.skills,
        reverie.skillUsage,
        reverie.conversationLog,
        reverie.feedback,
        reverie.workflowLog,
      ];
      expect(stores.map((store) => store?.constructor.name)).toEqual([
        'PostgresMemoryStore',
        'PostgresWorkingMemory',
        'PostgresSkillStore',
        'PostgresSkillUsageStore',
        'PostgresConversationLog',
        'PostgresFeedbackStore',
        'PostgresWorkflowLog',
      ]);
      expect(readdirSync(dataPath)).toEqual([]);
    } finally {
      await reverie.close();
    }
  });

  it('gives the embedder to the skill store and working memory too, with withMemory’s threshold: their search becomes hybrid (SPEC M4)', async () => {
    const embedder = createFakeEmbedder({ synonyms: { automobile: 'car' } });
    const reverie = createReverie({ dataPath, clock, scope: 'hybrid', embedder })
      .withPostgres({ pglite: db })
      .withMemory({ minSimilarity: 0.2 })
      .withSkills()
      .withWorkingMemory()
      .build();
    try {
      // Each text is about 0.4 similar to "automobile" (= "car"): under the default threshold (0.5), over this one.
      await reverie.skills!.save({ name: 'errands/parking', summary: 'Where to leave the car', content: 'Level 3 of the garage.' });
      await reverie.workingMemory!.set('session/s1/parking', 'The car is on level 3');
      await vi.waitFor(() => expect(embedder.calls.flat().filter((text) => text.includes('car'))).toHaveLength(2));
      await expect
        .poll(async () => (await reverie.skills!.search({ text: 'automobile' })).map((hit) => hit.skill.name))
        .toEqual(['errands/parking']);
      await expect
        .poll(async () => (await reverie.workingMemory!.search({ text: 'automobile' })).map((hit) => hit.entry.key))
        .toEqual(['session/s1/parking']);
    } finally {
      await reverie.close();
    }
  });

  it('validates its options', () => {
    const bad = (options: unknown) => () =>
      createReverie({ dataPath })
        .withPostgres(options as never)
        .withMemory()
        .build();
    expect(bad({})).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('withPostgres') }));
    expect(bad({ connectionString: '' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(bad({ pool: { query: 'no' } })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(bad({ pglite: db, pool: db })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });

  it('says what to install when @reverie/postgres is not there', () => {
    const notInstalled = (specifier: string) => {
      throw Object.assign(new Error(`Cannot find module '${specifier}'`), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => loadPostgres(notInstalled)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('npm install @reverie/postgres') }),
    );
    const broken = () => {
      throw new SyntaxError('Unexpected token');
    };
    expect(() => loadPostgres(broken)).toThrow(SyntaxError);
  });

  it('serves many scopes from one client with buildScopes(), each scope built at its first get()', async () => {
    const scopes = createReverie({ dataPath, clock })
      .withPostgres({ pglite: db })
      .withMemory()
      .withDreaming({ enabled: false })
      .buildScopes();
    try {
      await scopes.get('tenant:a').memory!.save({ content: 'Tenant A ships on Mondays' });
      await scopes.get('tenant:b').memory!.save({ content: 'Tenant B ships on Fridays' });
      expect(scopes.open).toEqual(['tenant:a', 'tenant:b']);
      expect(await scopes.list()).toEqual(expect.arrayContaining(['tenant:a', 'tenant:b']));
      expect((await scopes.get('tenant:a').memory!.search({ text: 'ships' })).map((hit) => hit.entry.content)).toEqual([
        'Tenant A ships on Mondays',
      ]);
      await scopes.get('tenant:b').dreams.run();
      expect(await scopes.get('tenant:a').dreams.listRuns()).toEqual([]);
    } finally {
      await scopes.close();
    }
  });
});
