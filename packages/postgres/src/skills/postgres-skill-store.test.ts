import { describeSkillStoreConformance } from '@reverie/core/testing';
import { describeOnEachDatabase } from '../../test/each-database';
import { PostgresSkillStore } from './postgres-skill-store';

describeOnEachDatabase((database, client) => {
  describeSkillStoreConformance(`PostgresSkillStore on ${database}`, ({ clock, scope }) => new PostgresSkillStore({ client: client(), scope, clock }), { persistent: true });
});
