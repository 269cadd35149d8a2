import { describeConversationLogConformance } from '@reverie/core/testing';
import { describe, expect, it } from 'vitest';
import { postgresClientFromConnectionString } from '../client/node-postgres-client';
import { describeOnEachDatabase } from '../../test/each-database';
import { realServer, useRealDatabase } from '../../test/test-databases';
import { PostgresConversationLog } from './postgres-conversation-log';

describeOnEachDatabase((database, client) => {
  describeConversationLogConformance(
    `PostgresConversationLog on ${database}`,
    ({ clock, scope }) => new PostgresConversationLog({ client: client(), scope, clock }),
    {
      persistent: true,
    },
  );
});

describe.skipIf(!realServer.url)('PostgresConversationLog on a real PostgreSQL server', () => {
  const database = useRealDatabase();

  it('lets a reader that polls after the last seq it read miss no turn while four processes append', async () => {
    const clients = Array.from({ length: 5 }, () => postgresClientFromConnectionString(database()));
    try {
      const [readerClient, ...writerClients] = clients;
      const logs = writerClients.map((client) => new PostgresConversationLog({ client, scope: 'user:seq' }));
      const reader = new PostgresConversationLog({ client: readerClient!, scope: 'user:seq' });
      const seen: number[] = [];
      let writing = true;
      const readNew = async () => {
        const turns = await reader.read({ afterSeq: seen.at(-1) ?? 0 });
        seen.push(...turns.map((turn) => turn.seq));
        return turns.length;
      };
      const poll = (async () => {
        while (writing) if ((await readNew()) === 0) await new Promise((resolve) => setTimeout(resolve, 1));
        await readNew();
      })();
      await Promise.all(
        logs.map(async (log, i) => {
          for (let j = 0; j < 50; j++) await log.append({ sessionId: `writer-${i}`, role: 'user', content: `turn ${j}` });
        }),
      );
      writing = false;
      await poll;
      expect(seen).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
