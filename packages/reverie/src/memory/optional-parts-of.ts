import type { ILongTermMemory, IMemoryChangeFeed } from '@reverie/core';

/**
 * The optional parts of a store, exactly those it has, for a wrapper that forwards them (callers
 * test for them): the change feed's methods (SPEC B12), bound to it, and `tiers` (SPEC B13).
 */
export function optionalPartsOf(
  store: ILongTermMemory,
): Partial<Pick<IMemoryChangeFeed, 'changes' | 'neighbours' | 'compactChanges' | 'neighbourIds'>> & { tiers?: boolean } {
  return {
    ...(store.tiers === true ? { tiers: true } : {}),
    ...(typeof store.changes === 'function' ? { changes: store.changes.bind(store) } : {}),
    ...(typeof store.neighbours === 'function' ? { neighbours: store.neighbours.bind(store) } : {}),
    ...(typeof store.compactChanges === 'function' ? { compactChanges: store.compactChanges.bind(store) } : {}),
    ...(typeof store.neighbourIds === 'function' ? { neighbourIds: store.neighbourIds.bind(store) } : {}),
  };
}
