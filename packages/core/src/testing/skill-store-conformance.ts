// Over 400 lines on purpose: the skill store's conformance cases read as one checklist that a store
// author runs and reads top to bottom; the shared harness and corpora live in their own files.
import { describe, expect, it } from 'vitest';
import type { ISkillStore } from '../interfaces/skill-store';
import { type ConformanceOptions, DAY, HOSTILE_PATHS, type StoreFactory, useStoreHarness } from './conformance-context';
import { NAME_WORDS, storedOrRefused, UNSTORABLE_FRAGMENTS, userTexts } from './user-text-corpus';

/**
 * The behaviour every `ISkillStore` must show (SPEC M13), as a vitest suite. Call it from a test
 * file of your store:
 *
 * ```ts
 * describeSkillStoreConformance('MySkillStore', ({ clock, scope }) => new MySkillStore({ clock, scope }), { persistent: true });
 * ```
 */
export function describeSkillStoreConformance(name: string, factory: StoreFactory<ISkillStore>, options: ConformanceOptions = {}): void {
  describe(`${name} — ISkillStore conformance`, () => {
    const harness = useStoreHarness(factory, options);
    const ms = (iso: string | null | undefined) => (iso == null ? NaN : new Date(iso).getTime());

    describe('save and get', () => {
      it('stamps createdAt and updatedAt from the clock and leaves lastUsedAt null', async () => {
        const store = await harness.open();
        const now = harness.clock.now().getTime();
        const saved = await store.save({
          name: 'git/rebase',
          summary: 'Rebase a branch onto main',
          content: '1. git fetch\n2. git rebase origin/main',
        });
        expect(saved).toMatchObject({
          name: 'git/rebase',
          summary: 'Rebase a branch onto main',
          content: '1. git fetch\n2. git rebase origin/main',
          seeAlso: [],
          lastUsedAt: null,
        });
        expect(ms(saved.createdAt)).toBe(now);
        expect(ms(saved.updatedAt)).toBe(now);
        expect(await store.get('git/rebase')).toEqual(saved);
      });

      it('returns undefined for a skill that does not exist', async () => {
        const store = await harness.open();
        expect(await store.get('nothing/here')).toBeUndefined();
      });

      it('replaces a skill but keeps createdAt and lastUsedAt, moving updatedAt forward', async () => {
        const store = await harness.open();
        const first = await store.save({
          name: 'deploy/staging',
          summary: 'Deploy to staging',
          content: 'Run make deploy-staging',
          lastUsedAt: '2026-02-20T10:00:00.000Z',
        });
        harness.clock.advance(DAY);
        const updated = await store.save({
          name: 'deploy/staging',
          summary: 'Deploy to the staging cluster',
          content: 'Run make deploy ENV=staging',
        });
        expect(updated).toMatchObject({
          name: 'deploy/staging',
          summary: 'Deploy to the staging cluster',
          content: 'Run make deploy ENV=staging',
          createdAt: first.createdAt,
          lastUsedAt: '2026-02-20T10:00:00.000Z',
        });
        expect(ms(updated.updatedAt)).toBe(harness.clock.now().getTime());
        expect(ms(updated.updatedAt)).toBeGreaterThan(ms(first.updatedAt));
        expect(await store.get('deploy/staging')).toEqual(updated);
        expect(await store.list()).toHaveLength(1);
      });

      it('takes createdAt and lastUsedAt from the draft when it carries them', async () => {
        const store = await harness.open();
        await store.save({
          name: 'deploy/prod',
          summary: 'Deploy to production',
          content: 'Ask for approval first',
          lastUsedAt: '2026-02-01T09:00:00.000Z',
        });
        harness.clock.advance(DAY);
        const replaced = await store.save({
          name: 'deploy/prod',
          summary: 'Deploy to production',
          content: 'Ask for approval first, then run the pipeline',
          createdAt: '2025-12-24T08:00:00.000Z',
          lastUsedAt: '2026-02-28T16:30:00.000Z',
        });
        expect(replaced.createdAt).toBe('2025-12-24T08:00:00.000Z');
        expect(replaced.lastUsedAt).toBe('2026-02-28T16:30:00.000Z');
        const cleared = await store.save({ name: 'deploy/prod', summary: 'Deploy to production', content: 'x', lastUsedAt: null });
        expect(cleared.lastUsedAt).toBeNull();
        expect(cleared.createdAt).toBe('2025-12-24T08:00:00.000Z');
        expect(await store.get('deploy/prod')).toEqual(cleared);
      });

      it('moves updatedAt forward on every write, even within one clock tick', async () => {
        const store = await harness.open();
        const a = await store.save({ name: 'tick', summary: 'tick', content: '' });
        const b = await store.save({ name: 'tick', summary: 'tock', content: '' });
        expect(ms(b.updatedAt)).toBeGreaterThan(ms(a.updatedAt));
      });

      it('accepts names with slashes and keeps skills with a common prefix apart', async () => {
        const store = await harness.open();
        await store.save({ name: 'mcp', summary: 'How MCP servers work here', content: 'overview' });
        await store.save({ name: 'mcp/email', summary: 'Send email through the MCP server', content: 'use send_email' });
        await store.save({ name: 'mcp/email/attachments', summary: 'Attach files to an email', content: 'base64 first' });
        expect((await store.get('mcp/email'))?.summary).toBe('Send email through the MCP server');
        expect((await store.get('mcp/email/attachments'))?.summary).toBe('Attach files to an email');
        expect((await store.get('mcp'))?.summary).toBe('How MCP servers work here');
      });

      it('de-duplicates seeAlso and drops the skill itself from it', async () => {
        const store = await harness.open();
        const saved = await store.save({
          name: 'mcp/email',
          summary: 'Send email',
          content: 'use send_email',
          seeAlso: ['mcp/calendar', 'mcp/email', 'mcp/calendar', 'mcp/contacts'],
        });
        expect(saved.seeAlso).toEqual(['mcp/calendar', 'mcp/contacts']);
        expect((await store.get('mcp/email'))?.seeAlso).toEqual(['mcp/calendar', 'mcp/contacts']);
      });

      it('hands out copies: changing a returned skill changes nothing stored', async () => {
        const store = await harness.open();
        const saved = await store.save({
          name: 'docs/style',
          summary: 'House style',
          content: 'Use sentence case',
          seeAlso: ['docs/tone'],
        });
        saved.seeAlso.push('mutated');
        saved.content = 'mutated';
        const fetched = await store.get('docs/style');
        fetched!.seeAlso.push('mutated');
        fetched!.summary = 'mutated';
        const listed = await store.list();
        listed[0]!.seeAlso.push('mutated');
        const found = await store.search({ text: 'style' });
        found[0]!.skill.content = 'mutated';
        const again = await store.get('docs/style');
        expect(again).toMatchObject({ summary: 'House style', content: 'Use sentence case', seeAlso: ['docs/tone'] });
      });
    });

    describe('delete', () => {
      it('removes a skill from get, list and search, and says whether it existed', async () => {
        const store = await harness.open();
        await store.save({ name: 'cooking/pasta', summary: 'Cook pasta al dente', content: 'Boil salted water' });
        await store.save({ name: 'cooking/rice', summary: 'Cook rice', content: 'Rinse, then boil salted water' });
        expect(await store.delete('cooking/pasta')).toBe(true);
        expect(await store.delete('cooking/pasta')).toBe(false);
        expect(await store.delete('never/existed')).toBe(false);
        expect(await store.get('cooking/pasta')).toBeUndefined();
        expect((await store.list()).map((s) => s.name)).toEqual(['cooking/rice']);
        expect((await store.search({ text: 'salted water boil' })).map((r) => r.skill.name)).toEqual(['cooking/rice']);
      });
    });

    describe('optimistic concurrency', () => {
      it('saves and deletes only when ifUpdatedAt matches the stored skill', async () => {
        const store = await harness.open();
        const first = await store.save({ name: 'ops/backup', summary: 'Version one', content: '' });
        harness.clock.advance(1000);
        const second = await store.save({ name: 'ops/backup', summary: 'Version two', content: '' }, { ifUpdatedAt: first.updatedAt });
        await expect(
          store.save({ name: 'ops/backup', summary: 'Stale write', content: '' }, { ifUpdatedAt: first.updatedAt }),
        ).rejects.toMatchObject({
          code: 'CONFLICT',
        });
        expect((await store.get('ops/backup'))?.summary).toBe('Version two');
        await expect(store.delete('ops/backup', { ifUpdatedAt: first.updatedAt })).rejects.toMatchObject({ code: 'CONFLICT' });
        expect(await store.get('ops/backup')).toEqual(second);
        expect(await store.delete('ops/backup', { ifUpdatedAt: second.updatedAt })).toBe(true);
        expect(await store.get('ops/backup')).toBeUndefined();
      });

      it('treats ifUpdatedAt: null as "only if new"', async () => {
        const store = await harness.open();
        const created = await store.save({ name: 'ops/restore', summary: 'First', content: '' }, { ifUpdatedAt: null });
        expect(created.name).toBe('ops/restore');
        await expect(store.save({ name: 'ops/restore', summary: 'Second', content: '' }, { ifUpdatedAt: null })).rejects.toMatchObject({
          code: 'CONFLICT',
        });
        expect((await store.get('ops/restore'))?.summary).toBe('First');
      });

      it('refuses a conditional write to a skill that does not exist', async () => {
        const store = await harness.open();
        await expect(
          store.save({ name: 'ops/ghost', summary: 'Ghost', content: '' }, { ifUpdatedAt: '2026-03-01T12:00:00.000Z' }),
        ).rejects.toMatchObject({ code: 'CONFLICT' });
        expect(await store.list()).toEqual([]);
      });
    });

    describe('list', () => {
      it('lists every skill sorted by name', async () => {
        const store = await harness.open();
        for (const skillName of ['zsh/aliases', 'git/rebase', 'mcp/email', 'git/bisect', 'mcp']) {
          await store.save({ name: skillName, summary: `About ${skillName}`, content: '' });
        }
        expect((await store.list()).map((s) => s.name)).toEqual(['git/bisect', 'git/rebase', 'mcp', 'mcp/email', 'zsh/aliases']);
      });

      it('filters by name prefix segment by segment', async () => {
        const store = await harness.open();
        for (const skillName of ['mcp/email', 'mcpx/a', 'mcp', 'mcp/calendar/invites', 'other']) {
          await store.save({ name: skillName, summary: `About ${skillName}`, content: '' });
        }
        expect((await store.list({ prefix: 'mcp' })).map((s) => s.name)).toEqual(['mcp', 'mcp/calendar/invites', 'mcp/email']);
        expect((await store.list({ prefix: 'mcp/calendar' })).map((s) => s.name)).toEqual(['mcp/calendar/invites']);
        expect(await store.list({ prefix: 'mc' })).toEqual([]);
      });
    });

    describe('search', () => {
      it('ranks the skill that matches the query first, best score first', async () => {
        const store = await harness.open();
        await store.save({ name: 'cooking/bread', summary: 'Bake sourdough bread', content: 'Feed the starter the night before' });
        await store.save({
          name: 'k8s/rollback',
          summary: 'Roll back a Kubernetes deployment',
          content: 'kubectl rollout undo deployment/<name>; check the pods afterwards',
        });
        await store.save({ name: 'mail/triage', summary: 'Triage the inbox', content: 'Archive newsletters, flag invoices' });
        const results = await store.search({ text: 'kubernetes rollout undo' });
        expect(results[0]?.skill.name).toBe('k8s/rollback');
        for (let i = 1; i < results.length; i++) expect(results[i - 1]!.score).toBeGreaterThanOrEqual(results[i]!.score);
      });

      it('matches on the name, the summary and the content', async () => {
        const store = await harness.open();
        await store.save({ name: 'tools/jq', summary: 'Filter JSON on the command line', content: 'Pipe into it' });
        await store.save({ name: 'tools/sed', summary: 'Edit text streams', content: 'Substitute with s/old/new/g' });
        await store.save({ name: 'tools/awk', summary: 'Process columns', content: 'Print the third field with $3' });
        expect((await store.search({ text: 'jq' })).map((r) => r.skill.name)).toEqual(['tools/jq']);
        expect((await store.search({ text: 'streams' })).map((r) => r.skill.name)).toEqual(['tools/sed']);
        expect((await store.search({ text: 'columns' })).map((r) => r.skill.name)).toEqual(['tools/awk']);
        expect((await store.search({ text: 'substitute' })).map((r) => r.skill.name)).toEqual(['tools/sed']);
      });

      it('finds a skill by its new content after a replace, not by its old one', async () => {
        const store = await harness.open();
        await store.save({ name: 'notes/colour', summary: 'Brand colour', content: 'The brand colour is crimson' });
        await store.save({ name: 'notes/colour', summary: 'Brand colour', content: 'The brand colour is turquoise' });
        expect(await store.search({ text: 'crimson' })).toEqual([]);
        expect((await store.search({ text: 'turquoise' })).map((r) => r.skill.name)).toEqual(['notes/colour']);
      });

      it('keeps only skills under the prefix, segment by segment', async () => {
        const store = await harness.open();
        await store.save({ name: 'mcp/email', summary: 'Send an email', content: 'email via MCP' });
        await store.save({ name: 'mcp', summary: 'MCP email overview', content: 'email servers' });
        await store.save({ name: 'mcpx/email', summary: 'Legacy email bridge', content: 'email via the old bridge' });
        await store.save({ name: 'mail/email', summary: 'Plain email', content: 'email via SMTP' });
        const names = (await store.search({ text: 'email', prefix: 'mcp' })).map((r) => r.skill.name);
        expect(names.sort()).toEqual(['mcp', 'mcp/email']);
      });

      it('returns at most maxResults, 8 by default', async () => {
        const store = await harness.open();
        for (let i = 0; i < 12; i++)
          await store.save({ name: `servers/web-${i}`, summary: `Web server ${i}`, content: 'Restart nginx gracefully' });
        expect(await store.search({ text: 'nginx' })).toHaveLength(8);
        expect(await store.search({ text: 'nginx', maxResults: 3 })).toHaveLength(3);
        expect(await store.search({ text: 'nginx', maxResults: 100 })).toHaveLength(12);
      });

      it('browses by name without a query, under the prefix and up to maxResults', async () => {
        const store = await harness.open();
        for (const skillName of ['b/two', 'a/one', 'c/three', 'b/one']) {
          await store.save({ name: skillName, summary: `About ${skillName}`, content: '' });
        }
        expect((await store.search({})).map((r) => r.skill.name)).toEqual(['a/one', 'b/one', 'b/two', 'c/three']);
        expect((await store.search({ prefix: 'b' })).map((r) => r.skill.name)).toEqual(['b/one', 'b/two']);
        expect((await store.search({ maxResults: 2 })).map((r) => r.skill.name)).toEqual(['a/one', 'b/one']);
      });

      it('returns nothing when nothing matches', async () => {
        const store = await harness.open();
        await store.save({ name: 'pets/cat', summary: 'Feed the cat', content: 'The cat is called Luna' });
        expect(await store.search({ text: 'xylophone' })).toEqual([]);
      });

      it('refuses a hostile prefix and a bad maxResults', async () => {
        const store = await harness.open();
        await expect(store.search({ text: 'x', prefix: '../secrets' })).rejects.toMatchObject({ code: 'INVALID_NAME' });
        await expect(store.search({ text: 'x', maxResults: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      });
    });

    describe('invalid input', () => {
      for (const [label, value] of HOSTILE_PATHS) {
        it(`refuses a name with ${label} and writes nothing`, async () => {
          const store = await harness.open();
          await expect(store.save({ name: value, summary: 'should not land', content: '' })).rejects.toMatchObject({
            code: 'INVALID_NAME',
          });
          await expect(store.get(value)).rejects.toMatchObject({ code: 'INVALID_NAME' });
          await expect(store.delete(value)).rejects.toMatchObject({ code: 'INVALID_NAME' });
          expect(await store.list()).toEqual([]);
        });
      }

      it('refuses a hostile name inside seeAlso and writes nothing', async () => {
        const store = await harness.open();
        await expect(
          store.save({ name: 'mcp/email', summary: 'Send email', content: '', seeAlso: ['mcp/calendar', '../../etc'] }),
        ).rejects.toMatchObject({
          code: 'INVALID_NAME',
        });
        expect(await store.list()).toEqual([]);
      });

      it('refuses an empty summary and a bad timestamp, and writes nothing', async () => {
        const store = await harness.open();
        await expect(store.save({ name: 'mcp/email', summary: '', content: 'x' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(store.save({ name: 'mcp/email', summary: 'x', content: 'x', createdAt: 'yesterday' })).rejects.toMatchObject({
          code: 'INVALID_INPUT',
        });
        await expect(store.save({ name: 'mcp/email', summary: 'x', content: 'x', lastUsedAt: 'soon' })).rejects.toMatchObject({
          code: 'INVALID_INPUT',
        });
        expect(await store.list()).toEqual([]);
      });

      it('refuses an invalid replacement and keeps the stored skill', async () => {
        const store = await harness.open();
        const saved = await store.save({ name: 'mcp/email', summary: 'Send email', content: 'use send_email' });
        await expect(store.save({ name: 'mcp/email', summary: '', content: 'broken' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        expect(await store.get('mcp/email')).toEqual(saved);
      });
    });

    describe('concurrency', () => {
      it('loses nothing when many saves run at once', async () => {
        const store = await harness.open();
        const names = Array.from({ length: 100 }, (_, i) => `bulk/group-${i % 7}/skill-${String(i).padStart(3, '0')}`);
        await Promise.all(
          names.map((skillName, i) => store.save({ name: skillName, summary: `Parallel skill ${i}`, content: `step ${i}` })),
        );
        const listed = await store.list();
        expect(listed).toHaveLength(100);
        expect(listed.map((s) => s.name)).toEqual([...names].sort());
      });

      it('lets exactly one of many racing "only if new" saves win', async () => {
        const store = await harness.open();
        const outcomes = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            store.save({ name: 'race/winner', summary: `Writer ${i}`, content: '' }, { ifUpdatedAt: null }),
          ),
        );
        const won = outcomes.filter((o) => o.status === 'fulfilled');
        const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost.every((o) => (o.reason as { code?: string }).code === 'CONFLICT')).toBe(true);
        expect((await store.get('race/winner'))?.summary).toBe((won[0] as PromiseFulfilledResult<{ summary: string }>).value.summary);
      });
    });

    describe('user text is data (SPEC M2)', () => {
      it('keeps any skill name word, summary and content exactly, finds it, and refuses only what no store can hold', async () => {
        const store = await harness.open();
        const saved = [];
        for (const [i, content] of userTexts(24).entries()) {
          const word = NAME_WORDS[i % NAME_WORDS.length]!;
          const skill = await storedOrRefused(
            store.save({
              name: `${word}/${NAME_WORDS[(i + 5) % NAME_WORDS.length]!}-${i}`,
              summary: `${word}: ${content.slice(0, 200)}`,
              content,
              seeAlso: [word],
            }),
          );
          if (skill) saved.push(skill);
          if (skill) expect(await store.get(skill.name)).toEqual(skill);
        }
        expect(saved.length).toBe(24);
        for (const word of NAME_WORDS) expect(Array.isArray(await store.search({ text: word }))).toBe(true);
        expect((await store.search({ text: 'constructor' })).length).toBeGreaterThan(0);
        for (const bad of UNSTORABLE_FRAGMENTS) {
          await expect(store.save({ name: 'code/bad', summary: 'x', content: bad })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
          await expect(store.search({ text: bad })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        }
        const reread = options.persistent ? await harness.reopen(store) : store;
        for (const skill of saved) expect(await reread.get(skill.name)).toEqual(skill);
        expect((await reread.list()).length).toBe(saved.length);
      });
    });

    describe('lifecycle', () => {
      it('refuses calls after close with STORE_CLOSED', async () => {
        const store = await harness.open();
        await store.save({ name: 'mcp/email', summary: 'Send email', content: '' });
        await store.close();
        await expect(store.get('mcp/email')).rejects.toMatchObject({ code: 'STORE_CLOSED' });
        await expect(store.save({ name: 'mcp/other', summary: 'x', content: '' })).rejects.toMatchObject({ code: 'STORE_CLOSED' });
        await expect(store.list()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
        await expect(store.search({ text: 'email' })).rejects.toMatchObject({ code: 'STORE_CLOSED' });
        await expect(store.delete('mcp/email')).rejects.toMatchObject({ code: 'STORE_CLOSED' });
      });

      if (options.persistent) {
        it('finds everything again after a reopen', async () => {
          const store = await harness.open();
          const email = await store.save({
            name: 'mcp/email',
            summary: 'Send email through the MCP server',
            content: 'Call send_email with to, subject and body',
            seeAlso: ['mcp/contacts'],
            lastUsedAt: '2026-02-27T08:15:00.000Z',
          });
          harness.clock.advance(1000);
          const rebase = await store.save({ name: 'git/rebase', summary: 'Rebase onto main', content: 'git rebase origin/main' });
          await store.save({ name: 'tmp/scratch', summary: 'Deleted before reopening', content: 'scratch' });
          await store.delete('tmp/scratch');
          const reopened = await harness.reopen(store);
          expect(await reopened.get('mcp/email')).toEqual(email);
          expect(await reopened.get('git/rebase')).toEqual(rebase);
          expect(await reopened.get('tmp/scratch')).toBeUndefined();
          expect((await reopened.list()).map((s) => s.name)).toEqual(['git/rebase', 'mcp/email']);
          expect((await reopened.search({ text: 'send_email subject body' }))[0]?.skill).toEqual(email);
          expect(await reopened.search({ text: 'scratch' })).toEqual([]);
        });

        it('keeps optimistic concurrency working across a reopen', async () => {
          const store = await harness.open();
          const saved = await store.save({ name: 'ops/backup', summary: 'Nightly backup', content: '' });
          const reopened = await harness.reopen(store);
          harness.clock.advance(1000);
          await expect(reopened.save({ name: 'ops/backup', summary: 'Again', content: '' }, { ifUpdatedAt: null })).rejects.toMatchObject({
            code: 'CONFLICT',
          });
          const updated = await reopened.save(
            { name: 'ops/backup', summary: 'Hourly backup', content: '' },
            { ifUpdatedAt: saved.updatedAt },
          );
          expect(updated.createdAt).toBe(saved.createdAt);
        });
      }
    });
  });
}
