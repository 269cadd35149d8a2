import { estimateTokens } from '@reverie/core/internal';

/**
 * The items, in the order given, that fit in `budget` tokens together (SPEC M11): each is taken
 * when its rendered line still fits, and one that does not is passed over, so that one long
 * entry never hides the shorter ones after it. `render` is the item's line as the model will see
 * it; lines cost `estimateTokens` plus one for the line break. Pure.
 */
export function fitTokenBudget<T>(items: readonly T[], render: (item: T) => string, budget: number): T[] {
  const kept: T[] = [];
  let spent = 0;
  for (const item of items) {
    const cost = estimateTokens(render(item)) + 1;
    if (spent + cost > budget) continue;
    kept.push(item);
    spent += cost;
  }
  return kept;
}
