import type { MemoryLineage } from '@reverie/core';
import type { DreamOperation } from '@reverie/dream-state';

function restampLineage(lineage: MemoryLineage, from: string, to: string): MemoryLineage {
  const { origin, ancestors } = lineage;
  return {
    ...lineage,
    ...(origin?.runId === from ? { origin: { ...origin, runId: to } } : {}),
    ...(ancestors === undefined
      ? {}
      : { ancestors: ancestors.map((ancestor) => (ancestor.runId === from ? { ...ancestor, runId: to } : ancestor)) }),
  };
}

/**
 * SPEC B10: the operations of a plan a dry run (`from`) made, as the run that applies it (`to`)
 * writes them: the lineage the plan's saves record names the applying run, which has a run
 * folder, undo and a report, instead of the dry run, which has none. Run ids of earlier runs stay.
 * Pure.
 */
export function restampLineageRun(operations: readonly DreamOperation[], from: string, to: string): DreamOperation[] {
  return operations.map((operation) =>
    operation.op === 'memory.save' && operation.entry.lineage !== undefined
      ? { ...operation, entry: { ...operation.entry, lineage: restampLineage(operation.entry.lineage, from, to) } }
      : operation,
  );
}
