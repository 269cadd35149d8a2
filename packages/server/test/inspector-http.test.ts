import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inspector } from '../src/index';
import { INSPECTOR_CSP } from '../src/inspector/inspector-extension';
import { INSPECTOR_OPERATIONS } from '../src/inspector/inspector-operations';
import { builtInspectorFolder } from '../src/inspector/inspector-assets';
import { DEPLOY_MERGE, serveDreamedMemory } from './__fixtures__/dreamed-memory';
import type { Served } from './served-reverie';

const TOKEN = 'inspector-token-0123456789';
let site: string;
let served: (Served & { runId: string }) | undefined;

beforeAll(async () => {
  // A stand-in for the built page: these tests are about how it is served, not what it shows.
  site = await mkdtemp(join(tmpdir(), 'reverie-inspector-site-'));
  await mkdir(join(site, 'assets'));
  await writeFile(join(site, 'index.html'), '<!doctype html><script type="module" src="/inspector/assets/app.js"></script>');
  await writeFile(join(site, 'assets', 'app.js'), 'export {}');
  await writeFile(join(site, 'assets', 'app.css'), 'body {}');
});
afterAll(() => rm(site, { recursive: true, force: true }));
afterEach(async () => {
  await served?.close();
  served = undefined;
});

interface Change {
  kind: string;
  key: string;
  action: string;
  outcome: string;
  reason: string;
  before?: { content: string };
  after?: { content: string };
}

describe('the inspector page', () => {
  it('is served without the token, with its content types and a strict Content-Security-Policy, while its API needs the token', async () => {
    served = await serveDreamedMemory({ token: TOKEN, extensions: [inspector({ assets: site })] });
    const page = await fetch(`${served.server.url}/inspector/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(INSPECTOR_CSP);
    expect(INSPECTOR_CSP).toContain("default-src 'none'");
    expect(INSPECTOR_CSP).not.toMatch(/unsafe|\*|https?:/);
    const script = await fetch(`${served.server.url}/inspector/assets/app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toBe(INSPECTOR_CSP);
    expect((await fetch(`${served.server.url}/inspector/assets/app.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    const root = await fetch(`${served.server.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/inspector/');

    for (const path of ['/api/memory/categories', `/api/dream/runs/${served.runId}/changes`, '/api/dream/ledger']) {
      expect((await fetch(`${served.server.url}${path}`)).status).toBe(401);
    }
  });

  it("answers NOT_FOUND saying how to build it when the page's folder holds no page", async () => {
    const empty = await mkdtemp(join(tmpdir(), 'reverie-inspector-empty-'));
    served = await serveDreamedMemory({ extensions: [inspector({ assets: empty })] });
    const answer = await fetch(`${served.server.url}/inspector/`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: expect.stringContaining('pnpm build') } });
    await rm(empty, { recursive: true, force: true });
  });

  it('finds the built page beside the bundle or from the sources, and nothing when it was not built', async () => {
    const root = await mkdtemp(join(tmpdir(), 'reverie-inspector-package-'));
    const bundle = pathToFileURL(join(root, 'dist', 'index.js')).href;
    const source = pathToFileURL(join(root, 'src', 'inspector', 'inspector-assets.ts')).href;
    expect(builtInspectorFolder(bundle)).toBeUndefined();
    expect(builtInspectorFolder(source)).toBeUndefined();
    await mkdir(join(root, 'dist', 'inspector'), { recursive: true });
    await writeFile(join(root, 'dist', 'inspector', 'index.html'), '<!doctype html>');
    expect(builtInspectorFolder(bundle)).toBe(join(root, 'dist', 'inspector') + '/');
    expect(builtInspectorFolder(source)).toBe(join(root, 'dist', 'inspector') + '/');
    await rm(root, { recursive: true, force: true });
  });
});

describe("the inspector's reads on the HTTP API", () => {
  it("answers a run's changes, each entry before and after, and an entry's history", async () => {
    served = await serveDreamedMemory({ token: TOKEN, extensions: [inspector({ assets: site })] });
    const changes = (await (await served.call(`/api/dream/runs/${served.runId}/changes`)).json()) as Change[];
    const created = changes.find((change) => change.action === 'created')!;
    expect(created).toMatchObject({ kind: 'memory', outcome: 'applied', after: { content: DEPLOY_MERGE.content } });
    const deleted = changes.filter((change) => change.action === 'deleted');
    expect(deleted.map((change) => change.before?.content).sort()).toEqual([...DEPLOY_MERGE.sources].sort());

    const history = (await (await served.call(`/api/memory/${deleted[0]!.key}/history`)).json()) as Array<
      Change & { runId: string; runStatus: string }
    >;
    expect(history).toEqual([
      expect.objectContaining({
        runId: served.runId,
        action: 'deleted',
        runStatus: 'complete',
        reason: expect.stringContaining(created.key),
      }),
    ]);
    expect(await (await served.call(`/api/memory/${created.key}/history`)).json()).toEqual([
      expect.objectContaining({ action: 'created' }),
    ]);

    const missing = await served.call('/api/dream/runs/000000000000/changes');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'RUN_NOT_FOUND' } });
  });

  it('answers the ledger within a window, and refuses a bad window with 400', async () => {
    served = await serveDreamedMemory({ extensions: [inspector({ assets: site })] });
    const lines = (await (await served.call('/api/dream/ledger?windowHours=24')).json()) as Array<{
      runId: string;
      pass: string;
      status: string;
      tokens: { input: number };
    }>;
    expect(lines.find((line) => line.pass === 'memory-consolidation')).toMatchObject({
      runId: served.runId,
      status: 'ok',
      tokens: { input: expect.any(Number) },
    });
    const bad = await served.call('/api/dream/ledger?windowHours=soon');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'INVALID_INPUT' } });
  });

  it('lists its reads in the OpenAPI document beside the others', async () => {
    served = await serveDreamedMemory({ extensions: [inspector({ assets: site })] });
    const document = (await (await served.call('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(document.paths['/api/memory/{id}/history']?.get?.operationId).toBe('get_memory_history');
    expect(document.paths['/api/dream/runs/{runId}/changes']?.get?.operationId).toBe('get_dream_run_changes');
    expect(document.paths['/api/dream/ledger']?.get?.operationId).toBe('get_dream_ledger');
    expect(document.paths['/api/dream/runs/{runId}/undo']?.post?.operationId).toBe('undo_dream_run');
  });

  it('undoes the run (the merged entries are back) and, read-only, refuses undo and apply but serves the reads', async () => {
    served = await serveDreamedMemory({ extensions: [inspector({ assets: site })] });
    const undone = await served.call(`/api/dream/runs/${served.runId}/undo`, { method: 'POST' });
    expect(undone.status).toBe(200);
    expect(await undone.json()).toMatchObject({ restored: [expect.any(String), expect.any(String)], removed: [expect.any(String)] });
    expect((await served.reverie.memory!.list()).map((entry) => entry.content)).toEqual(expect.arrayContaining(DEPLOY_MERGE.sources));
    await served.close();

    served = await serveDreamedMemory({ readOnly: true, extensions: [inspector({ assets: site })] });
    const refused = await served.call(`/api/dream/runs/${served.runId}/undo`, { method: 'POST' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'READ_ONLY' } });
    expect((await served.call('/api/dream/plans/0123456789ab/apply', { method: 'POST' })).status).toBe(403);
    expect((await served.call(`/api/dream/runs/${served.runId}/changes`)).status).toBe(200);
    expect((await served.reverie.memory!.list()).map((entry) => entry.content)).toContain(DEPLOY_MERGE.content);
  });
});

describe('docs/server.md', () => {
  it("lists each of the inspector's reads with its route, and the page's Content-Security-Policy as served", async () => {
    const doc = await readFile(new URL('../../../docs/server.md', import.meta.url), 'utf8');
    for (const operation of INSPECTOR_OPERATIONS) {
      expect(doc, operation.name).toContain(`| \`${operation.http.method} ${operation.http.path}\` | | reads | ${operation.title}`);
    }
    expect(doc).toContain(`\`${INSPECTOR_CSP}\``);
  });
});
