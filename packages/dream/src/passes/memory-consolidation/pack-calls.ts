/**
 * Packs groups of items into model calls under a token budget (SPEC B1). A group that fits is
 * never split; a group bigger than the budget is cut, in its own order, into consecutive pieces
 * that fit (an item bigger than the whole budget travels alone). Pieces go into the first call
 * with room for them (first fit), so calls fill up in order. `firstBudget` is the room of the
 * first call, which also carries the feedback. Pure.
 */
export function packIntoCalls(
  groups: ReadonlyArray<readonly string[]>,
  cost: (id: string) => number,
  budget: number,
  firstBudget: number = budget,
): string[][] {
  const calls: Array<{ ids: string[]; room: number }> = [];
  const place = (piece: string[], size: number) => {
    const call = calls.find((candidate) => candidate.room >= size);
    if (call) {
      call.ids.push(...piece);
      call.room -= size;
      return;
    }
    const room = calls.length === 0 ? firstBudget : budget;
    calls.push({ ids: [...piece], room: room - size });
  };
  for (const group of groups) {
    for (const piece of cut(group, cost, budget)) place(piece.ids, piece.size);
  }
  return calls.map((call) => call.ids);
}

function cut(group: readonly string[], cost: (id: string) => number, budget: number): Array<{ ids: string[]; size: number }> {
  const pieces: Array<{ ids: string[]; size: number }> = [];
  let current: { ids: string[]; size: number } = { ids: [], size: 0 };
  for (const id of group) {
    const size = cost(id);
    if (current.ids.length > 0 && current.size + size > budget) {
      pieces.push(current);
      current = { ids: [], size: 0 };
    }
    current.ids.push(id);
    current.size += size;
  }
  if (current.ids.length > 0) pieces.push(current);
  return pieces;
}

/** The estimate every budget uses (characters / 4), from `@reverie/core`. */
export { estimateTokens } from '@reverie/core/internal';
