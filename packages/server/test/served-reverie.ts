import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReverie, type Reverie } from 'reverie';
import { type ReverieServer, type StartServerOptions, startReverieServer } from '../src/index';

export interface Served {
  reverie: Reverie;
  server: ReverieServer;
  dataPath: string;
  /** fetch against the server, with the token when one is set. */
  call(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

/** A Reverie over a fresh data directory, served on a free loopback port. */
export async function serveFresh(
  options: Omit<StartServerOptions, 'reverie'> = {},
  build?: (dataPath: string) => Reverie,
): Promise<Served> {
  const dataPath = await mkdtemp(join(tmpdir(), 'reverie-server-'));
  const reverie =
    build?.(dataPath) ??
    createReverie({ dataPath })
      .withMemory()
      .withWorkingMemory()
      .withSkills()
      .withConversationLog()
      .withDreaming({ enabled: false })
      .build();
  const server = await startReverieServer({ port: 0, ...options, reverie, onError: options.onError ?? (() => undefined) });
  return {
    reverie,
    server,
    dataPath,
    call(path, { json, headers, ...init } = {}) {
      return fetch(`${server.url}${path}`, {
        ...init,
        headers: {
          ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
          ...(headers as Record<string, string> | undefined),
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
    },
    async close() {
      await server.close();
      await reverie.close();
      await rm(dataPath, { recursive: true, force: true });
    },
  };
}
