import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemorySearchResult } from '@reverie/core';
import { FileMemoryStore, FileSkillStore } from '@reverie/file-store';
import { OPERATIONS } from '@reverie/server';
import { callOk, exerciseEveryTool, expectWritesRefused } from '../../server/test/__fixtures__/every-tool';
import { realServer, useRealDatabase } from '../../postgres/test/test-databases';
import { CLI, expectOneLineError, runReverie, tempDir } from './__fixtures__/run-reverie';

let dir: ReturnType<typeof tempDir>;
let client: Client | undefined;
let child: ChildProcessWithoutNullStreams | undefined;
beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  child?.kill('SIGKILL');
  child = undefined;
  dir.remove();
});

/** The environment of the spawned server, without the host's REVERIE_* settings. */
function cleanEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith('REVERIE_')),
  );
}

async function connectStdio(...extra: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--stdio', '--data', dir.dataPath, ...extra],
    env: cleanEnv(),
    stderr: 'pipe',
    cwd: tmpdir(),
  });
  client = new Client({ name: 'reverie-cli-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('reverie serve --stdio', () => {
  it("serves every tool to the MCP SDK's client and answers every refusal", async () => {
    const skills = new FileSkillStore({ dataPath: dir.dataPath });
    await skills.save({ name: 'howto/deploy', summary: 'How to deploy', content: 'Run the pipeline.' });
    await skills.close();
    const options = join(dir.root, 'dreaming.json');
    writeFileSync(options, JSON.stringify({ gates: { minHours: 24 } }));
    const called = await exerciseEveryTool(await connectStdio('--options', options), 'howto/deploy');
    expect([...called].sort()).toEqual(OPERATIONS.map((operation) => operation.name).sort());
  });

  it('refuses every writing tool with READ_ONLY under --read-only, and writes nothing', async () => {
    const memory = new FileMemoryStore({ dataPath: dir.dataPath });
    const entry = await memory.save({ content: 'Deploys go out on Tuesdays' });
    await memory.close();
    const stdio = await connectStdio('--read-only');
    const writing = OPERATIONS.filter((operation) => operation.access === 'write').map((operation) => operation.name);
    await expectWritesRefused(stdio, writing, entry.id);
    expect(await callOk(stdio, 'list_memory')).toMatchObject({
      total: 1,
      entries: [expect.objectContaining({ content: 'Deploys go out on Tuesdays' })],
    });
  });
});

/** Starts `reverie serve --create` over HTTP on a free port, over the (new) data directory; resolves with its URL once it says where it listens. */
function startHttp(...extra: string[]): Promise<{ url: string; stderr: () => string; exited: Promise<number | null> }> {
  return serveHttp(['--data', dir.dataPath, '--create', ...extra]);
}

function serveHttp(where: string[]): Promise<{ url: string; stderr: () => string; exited: Promise<number | null> }> {
  child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...where], { env: cleanEnv(), cwd: dir.root });
  const started = child;
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => started.on('close', resolve));
  return new Promise((resolve, reject) => {
    started.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /at (http:\/\/[^\s:]+:\d+):/.exec(stderr)?.[1];
      if (url) resolve({ url, stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`reverie serve exited (${code}) before listening: ${stderr}`)));
  });
}

describe('reverie serve (HTTP)', () => {
  it('serves the API and MCP on loopback, and stops cleanly on SIGTERM with the writes on disk', async () => {
    const server = await startHttp();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Interrupted dream runs were looked for (and the dream state made) before the first answer.
    expect(existsSync(join(dir.dataPath, '_system', 'dreams'))).toBe(true);
    const saved = await fetch(`${server.url}/api/memory`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Saved over HTTP' }),
    });
    expect(saved.status).toBe(201);
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
    // The inspector page as `pnpm build` built it into the server package.
    const page = await fetch(`${server.url}/inspector/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).toContain('<div id="app">');
    child!.kill('SIGTERM');
    expect(await server.exited, server.stderr()).toBe(0);
    expect(server.stderr()).toContain('Stopping (SIGTERM)');
    const memory = new FileMemoryStore({ dataPath: dir.dataPath });
    expect((await memory.list()).map((entry) => entry.content)).toEqual(['Saved over HTTP']);
    await memory.close();
  });

  it('asks for the token from REVERIE_TOKEN', async () => {
    const token = 'serve-test-token-0123456789';
    child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data', dir.dataPath, '--create'], {
      env: { ...cleanEnv(), REVERIE_TOKEN: token },
      cwd: tmpdir(),
    });
    const started = child;
    const url = await new Promise<string>((resolve) => {
      let stderr = '';
      started.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const found = /at (http:\/\/[^\s:]+:\d+):/.exec(stderr)?.[1];
        if (found) resolve(found);
      });
    });
    expect((await fetch(`${url}/api/memory/categories`)).status).toBe(401);
    expect((await fetch(`${url}/api/memory/categories`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('refuses a data directory that does not exist unless --create (exit 3, nothing created); --create serves a new one', async () => {
    expectOneLineError(
      await runReverie(['serve', '--data', dir.dataPath]),
      3,
      /no data directory at .*add --create to serve a new, empty one there/,
    );
    expectOneLineError(await runReverie(['serve', '--stdio', '--data', dir.dataPath]), 3, /--create/);
    expect(existsSync(dir.dataPath)).toBe(false);
    expectOneLineError(await runReverie(['serve', '--create', '--read-only', '--data', dir.dataPath]), 2, /cannot go with --read-only/);
    expectOneLineError(
      await runReverie(['serve', '--create', '--postgres', 'postgres://reverie:secret@127.0.0.1:1/reverie']),
      2,
      /with --postgres there is none to create/,
    );
    expect(existsSync(dir.dataPath)).toBe(false);
    const server = await startHttp();
    expect((await fetch(`${server.url}/api/memory/categories`)).status).toBe(200);
    expect(existsSync(dir.dataPath)).toBe(true);
  });

  it('refuses to serve another address than loopback without a token (exit 2, one line)', async () => {
    const result = await runReverie(['serve', '--host', '0.0.0.0', '--data', dir.dataPath]);
    expectOneLineError(result, 2, /without a token/);
  });

  it('refuses an MCP session idle time that is not a whole number of seconds from 1 (exit 2, one line)', async () => {
    expectOneLineError(await runReverie(['serve', '--mcp-session-idle', '0', '--data', dir.dataPath]), 2, /mcp-session-idle/);
    expectOneLineError(await runReverie(['serve', '--mcp-session-idle', 'soon', '--data', dir.dataPath]), 2, /mcp-session-idle/);
  });

  it.each(['max-mcp-sessions', 'request-timeout', 'max-connections'])(
    'refuses --%s that is not a whole number from 1 (exit 2, one line)',
    async (option) => {
      expectOneLineError(await runReverie(['serve', `--${option}`, '0', '--data', dir.dataPath]), 2, new RegExp(option));
    },
  );
});

describe.skipIf(!realServer.url)('reverie serve --postgres (a real PostgreSQL server)', () => {
  const database = useRealDatabase();

  it("serves one scope of the database: what it saves is that scope's, and another scope's server never sees it", async () => {
    const ana = await serveHttp(['--postgres', database(), '--scope', 'user:ana']);
    expect(ana.stderr()).toMatch(/Serving scope user:ana of postgres:\/\//);
    const saved = await fetch(`${ana.url}/api/memory`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Ana flies with a window seat' }),
    });
    expect(saved.status).toBe(201);
    const found = (await (await fetch(`${ana.url}/api/memory/search?query=window`)).json()) as MemorySearchResult[];
    expect(found.map((hit) => hit.entry.content)).toEqual(['Ana flies with a window seat']);
    child!.kill('SIGTERM');
    expect(await ana.exited, ana.stderr()).toBe(0);

    const ben = await serveHttp(['--postgres', database(), '--scope', 'user:ben']);
    expect((await (await fetch(`${ben.url}/api/memory/search?query=window`)).json()) as MemorySearchResult[]).toEqual([]);
    child!.kill('SIGTERM');
    expect(await ben.exited, ben.stderr()).toBe(0);
  });
});
