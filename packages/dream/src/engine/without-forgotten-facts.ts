import { isSystemCategory } from '@reverie/core/internal';
import type { DreamOperation } from '@reverie/dream-state';
import type { PassPlan } from './dream-types';

type MemorySave = Extract<DreamOperation, { op: 'memory.save' }>;

/**
 * SPEC B14: the plan without the new entries that state a fact the user had Reverie forget (each
 * a refusal), so a cycle does not learn it again from the conversation log. What leans on a
 * refused entry goes with it, so nothing is lost: the deletes of the entries it merged (its
 * lineage's ancestors, which stay as they are) and the saves that mark an entry as superseded by
 * it. `_system/` entries are Reverie's own and never checked. Pure.
 */
export function withoutForgottenFacts(planned: PassPlan, states: (content: string) => boolean): PassPlan {
  const refused = planned.operations.filter(
    (operation): operation is MemorySave =>
      operation.op === 'memory.save' &&
      operation.expectUpdatedAt === null &&
      !isSystemCategory(operation.entry.category) &&
      states(operation.entry.content),
  );
  if (refused.length === 0) return planned;
  const refusedIds = new Set(refused.map((operation) => operation.entry.id));
  const sources = new Set(refused.flatMap((operation) => (operation.entry.lineage?.ancestors ?? []).map((ancestor) => ancestor.id)));
  const dropped = new Set<DreamOperation>(refused);
  for (const operation of planned.operations) {
    if (operation.op === 'memory.delete' && sources.has(operation.id)) dropped.add(operation);
    if (operation.op === 'memory.save' && operation.entry.supersededBy !== undefined && refusedIds.has(operation.entry.supersededBy)) {
      dropped.add(operation);
    }
  }
  return {
    ...planned,
    operations: planned.operations.filter((operation) => !dropped.has(operation)),
    refusals: [
      ...planned.refusals,
      ...refused.map((operation) => `new memory ${operation.entry.id} refused: it states a fact the user had Reverie forget`),
    ],
  };
}
