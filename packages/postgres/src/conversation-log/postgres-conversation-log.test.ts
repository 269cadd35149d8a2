import { describeConversationLogConformance } from '@reverie/core/testing';
import { describeOnEachDatabase } from '../../test/each-database';
import { PostgresConversationLog } from './postgres-conversation-log';

describeOnEachDatabase((database, client) => {
  describeConversationLogConformance(`PostgresConversationLog on ${database}`, ({ clock, scope }) => new PostgresConversationLog({ client: client(), scope, clock }), {
    persistent: true,
  });
});
