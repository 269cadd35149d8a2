import { describeFeedbackStoreConformance } from '@reverie/core/testing';
import { describeOnEachDatabase } from '../../test/each-database';
import { PostgresFeedbackStore } from './postgres-feedback-store';

describeOnEachDatabase((database, client) => {
  describeFeedbackStoreConformance(
    `PostgresFeedbackStore on ${database}`,
    ({ clock, scope }) => new PostgresFeedbackStore({ client: client(), scope, clock }),
    { persistent: true },
  );
});
