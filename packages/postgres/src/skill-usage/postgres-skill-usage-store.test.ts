import { describeSkillUsageStoreConformance } from '@reverie/core/testing';
import { describeOnEachDatabase } from '../../test/each-database';
import { PostgresSkillUsageStore } from './postgres-skill-usage-store';

describeOnEachDatabase((database, client) => {
  describeSkillUsageStoreConformance(
    `PostgresSkillUsageStore on ${database}`,
    ({ clock, scope }) => new PostgresSkillUsageStore({ client: client(), scope, clock }),
    { persistent: true },
  );
});
