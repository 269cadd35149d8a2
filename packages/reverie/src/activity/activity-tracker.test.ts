import { describe, expect, it } from 'vitest';
import { ManualClock } from '@reverie/core';
import { ActivityTracker } from './activity-tracker';

describe('ActivityTracker quiet period (SPEC D1)', () => {
  it('is measured on the monotonic clock: a wall-clock step back does not keep the user active', () => {
    const clock = new ManualClock('2026-06-01T12:00:00.000Z');
    const tracker = new ActivityTracker(clock, 5000);
    tracker.markUserActive();
    expect(tracker.isUserActive()).toBe(true);
    clock.set('2026-06-01T10:00:00.000Z');
    clock.advance(6000);
    expect(tracker.isUserActive()).toBe(false);
  });
});
