import type { DreamPass } from 'reverie';

const DAY = 86_400_000;

/** A dream pass of the host's: scratch notes older than `maxAgeDays` leave memory in deep sleep (undoable, like every pass). */
export function scratchExpiryPass(maxAgeDays = 7): DreamPass {
  return {
    name: 'scratch-expiry',
    phase: 'deep-sleep',
    requires: ['memory'],
    model: 'none',
    async plan({ services, now }) {
      const scratch = await services.memory!.list({ category: 'scratch' });
      const expired = scratch.filter((entry) => now().getTime() - Date.parse(entry.lastSeenAt) > maxAgeDays * DAY);
      return {
        operations: expired.map((entry) => ({
          op: 'memory.delete' as const,
          id: entry.id,
          expectUpdatedAt: entry.updatedAt,
          reason: `scratch note older than ${maxAgeDays} days`,
        })),
        itemsProcessed: scratch.length,
        notes: [`${expired.length} of ${scratch.length} scratch notes expired`],
        refusals: [],
      };
    },
  };
}
