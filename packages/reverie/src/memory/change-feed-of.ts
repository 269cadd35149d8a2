import type { ILongTermMemory, IMemoryChangeFeed } from '@reverie/core';

/** The optional change-feed methods of a store (SPEC B12), exactly those it has, bound to it: for a wrapper that forwards them (callers test for them). */
export function changeFeedOf(
  store: ILongTermMemory,
): Partial<Pick<IMemoryChangeFeed, 'changes' | 'neighbours' | 'compactChanges' | 'neighbourIds'>> {
  return {
    ...(typeof store.changes === 'function' ? { changes: store.changes.bind(store) } : {}),
    ...(typeof store.neighbours === 'function' ? { neighbours: store.neighbours.bind(store) } : {}),
    ...(typeof store.compactChanges === 'function' ? { compactChanges: store.compactChanges.bind(store) } : {}),
    ...(typeof store.neighbourIds === 'function' ? { neighbourIds: store.neighbourIds.bind(store) } : {}),
  };
}
