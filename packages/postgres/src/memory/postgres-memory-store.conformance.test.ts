import { describeLongTermMemoryConformance } from '@reverie/core/testing';
import { describe } from 'vitest';
import type { PostgresClient } from '../client/postgres-client';
import { realServer, usePgliteClient, useRealClient } from '../../test/test-databases';
import { PostgresMemoryStore } from './postgres-memory-store';

const conformance = (label: string, client: () => PostgresClient) =>
  describeLongTermMemoryConformance(label, ({ clock, scope }) => new PostgresMemoryStore({ client: client(), scope, clock }), {
    persistent: true,
    changeFeed: true,
    tiers: true,
  });

conformance('PostgresMemoryStore on PGlite', usePgliteClient());

describe.skipIf(!realServer.url)('on a real PostgreSQL server', () => {
  conformance('PostgresMemoryStore on PostgreSQL', useRealClient());
});
