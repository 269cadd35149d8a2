/**
 * Tokens of a text, estimated as characters / 4 (rounded up): the budget unit of the dream
 * passes' calls (SPEC B1) and of the per-turn context (SPEC M11). Pure.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
