import { describeWorkflowLogConformance } from '@reverie/core/testing';
import { describeOnEachDatabase } from '../../test/each-database';
import { PostgresWorkflowLog } from './postgres-workflow-log';

describeOnEachDatabase((database, client) => {
  describeWorkflowLogConformance(
    `PostgresWorkflowLog on ${database}`,
    ({ clock, scope }) => new PostgresWorkflowLog({ client: client(), scope, clock }),
    { persistent: true },
  );
});
