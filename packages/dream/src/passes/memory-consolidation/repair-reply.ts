import { z } from 'zod';
import { fenceUntrusted } from '@reverie/core/internal';
import type { ConsolidationReply } from './consolidation-reply';
import type { CallReview, RepairItem } from './review-reply';

/**
 * SPEC D15, B11: the answer to a repair request. Each save names the refused item it replaces
 * (`item`); a save without one is matched to the refused item whose sources hold its sourceIds,
 * so a model that sends its whole reply again is understood too. Lenient as the reply contract.
 */
export const consolidationRepairSchema = z.object({
  toSave: z
    .array(
      z.object({
        item: z.number().int().nullish(),
        content: z.string(),
        category: z.string().nullish(),
        tags: z.array(z.string()).nullish(),
        sourceIds: z.array(z.string()).nullish(),
      }),
    )
    .nullish()
    .transform((saves) => saves ?? []),
});
export type ConsolidationRepair = z.output<typeof consolidationRepairSchema>;

const REFUSED_LABEL = 'Your refused toSave items, one per line: item <n> (from <ids>): "<what you wrote>" — refused: <why>';
const SOURCES_LABEL = 'The entries those items came from, in the format of the first request';

/**
 * A refused save as the pass's one repair request names it: `number` is its place among the
 * toSave items of all the pass's calls (its `position` plus the saves of the calls before it),
 * so items of several calls are told apart; `call` and `position` say where it came from.
 */
export interface NumberedRepair extends RepairItem {
  call: number;
  number: number;
}

/**
 * The refused saves of a pass's calls, numbered for its one repair request (see
 * `NumberedRepair`). `calls` in call order: each call's refused items and how many toSave items
 * its reply held. Pure.
 */
export function numberRepairs(calls: ReadonlyArray<{ call: number; repairs: readonly RepairItem[]; saves: number }>): NumberedRepair[] {
  let before = 0;
  return calls.flatMap(({ call, repairs, saves }) => {
    const offset = before;
    before += saves;
    return repairs.map((item) => ({ ...item, call, number: offset + item.position }));
  });
}

/**
 * The user prompt of a pass's one repair request: the refused items of all its calls with what
 * the host found wrong (facts lost or added, sources it does not find alike, a category it
 * refuses), and only the entries they came from — the accepted part of the replies is neither
 * shown nor asked for again. Pure.
 */
export function renderRepairRequest(repairs: readonly NumberedRepair[], lineOf: (id: string) => string, today: Date): string {
  const items = repairs.map(
    (item) =>
      `item ${item.number} (from ${item.sourceIds.join(', ')}): ${JSON.stringify(item.content)} — refused: ${item.reasons.join('; ')}`,
  );
  const sourceIds = [...new Set(repairs.flatMap((item) => item.sourceIds))];
  const replies = new Set(repairs.map((item) => item.call)).size > 1 ? 'your replies' : 'your reply';
  return [
    `Today is ${today.toISOString().slice(0, 10)}. Repair needed. The host accepted the rest of ${replies} and keeps it; the ${repairs.length === 1 ? 'toSave item below was' : `${repairs.length} toSave items below were`} refused.`,
    fenceUntrusted(REFUSED_LABEL, items.join('\n')),
    fenceUntrusted(SOURCES_LABEL, sourceIds.map(lineOf).join('\n')),
    [
      "For each refused item, send a replacement that fixes what is named, following the rules, or leave the item out to withdraw it: its entries then stay as they are. A replacement may merge all of the item's entries or only some of them, and one item may become several replacements.",
      'Reply with a single JSON object and nothing else, in this shape:',
      '{"toSave": [{"item": <n>, "content": "<text>", "category": "<category>", "tags": ["<tag>"], "sourceIds": ["<id>"]}]}',
      'Each replacement names the item it replaces and lists only ids of that item. Do not repeat items that were not refused.',
    ].join('\n'),
  ].join('\n\n');
}

/** The replacements of one call, as a reply of its own; `itemOf[k]` is the position in that call's reply of the k-th replacement's refused item. */
export interface CallReplacements {
  reply: ConsolidationReply;
  itemOf: number[];
}

/**
 * The replacements of a repair answer, per call, each as a reply of its own for the same guards
 * as that call's first reply: each save bound to the refused item it names (by its `number`, or
 * the item whose sources hold all of its sourceIds), its sourceIds kept to that item's and to
 * entries no accepted change uses (`taken`). A save that names no refused item is dropped and
 * reported, unless it repeats a change a first reply already made (`accepted`: the sources of
 * the accepted saves; a model that sent its whole reply again). Pure.
 */
export function replacementsOf(
  answer: ConsolidationRepair,
  repairs: readonly NumberedRepair[],
  taken: ReadonlySet<string>,
  accepted: ReadonlyArray<readonly string[]>,
): { byCall: Map<number, CallReplacements>; refusals: string[] } {
  const refusals: string[] = [];
  const byCall = new Map<number, CallReplacements>();
  const calls = [...new Set(repairs.map((item) => item.call))];
  const asked = `${calls.length === 1 ? 'call' : 'calls'} ${calls.join(', ')}`;
  const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));
  answer.toSave.forEach((save, index) => {
    const ids = [...new Set(save.sourceIds ?? [])];
    const numbered = save.item !== null && save.item !== undefined;
    const item = numbered
      ? repairs.find((candidate) => candidate.number === save.item)
      : repairs.find((candidate) => ids.length > 0 && ids.every((id) => candidate.sourceIds.includes(id)));
    if (!item) {
      if (!accepted.some((sources) => sameIds(sources, ids))) {
        refusals.push(
          `${asked}: repair answer item ${index + 1} replaces no refused item${numbered ? ` (item ${save.item} was not refused)` : ''}; ignored`,
        );
      }
      return;
    }
    const where = `call ${item.call}: repair of toSave item ${item.position}`;
    const outside = ids.filter((id) => !item.sourceIds.includes(id) || taken.has(id));
    if (outside.length > 0)
      refusals.push(
        `${where}: ${outside.join(', ')} left out: not a source of that item, or already changed by the accepted part of the reply`,
      );
    const kept = ids.filter((id) => !outside.includes(id));
    if (kept.length === 0) {
      refusals.push(`${where} refused: none of its sourceIds is one of that item's`);
      return;
    }
    const replacements = byCall.get(item.call) ?? { reply: { toSave: [], toDelete: [], toSupersede: [] }, itemOf: [] };
    replacements.reply.toSave.push({ content: save.content, category: save.category ?? null, tags: save.tags ?? null, sourceIds: kept });
    replacements.itemOf.push(item.position);
    byCall.set(item.call, replacements);
  });
  return { byCall, refusals };
}

/**
 * A call's review with its repair spliced in: the first reply's accepted changes as they were,
 * the accepted replacements beside them, the refusals of both rounds, and the entries whose
 * merge is still refused left for a later run. Pure.
 */
export function spliceRepair(first: CallReview, second: CallReview, notes: readonly string[]): CallReview {
  const repaired = new Set(second.saves.flatMap((save) => save.sources.map((source) => source.id)));
  return {
    saves: [...first.saves, ...second.saves],
    deletions: first.deletions,
    supersessions: first.supersessions,
    refusals: [...first.refusals, ...notes, ...second.refusals],
    repairs: second.repairs,
    retry: [...new Set([...first.retry.filter((id) => !repaired.has(id)), ...second.retry])],
    proposed: first.proposed,
  };
}
