/**
 * Evidence recall at `k`, as LoCoMo's retrieval figures are measured: the share of a question's
 * evidence turn ids covered by the evidence of the first `k` entries ranked for it (each entry
 * carries the turn ids of the observations it holds; a merged entry those of every source).
 * 1 when all of them are covered, ½ when one of two is, 0 for a question without evidence. Pure.
 */
export function evidenceRecallAt(k: number, ranked: ReadonlyArray<readonly string[]>, evidence: readonly string[]): number {
  if (evidence.length === 0) return 0;
  const covered = new Set(ranked.slice(0, k).flat());
  return evidence.filter((id) => covered.has(id)).length / evidence.length;
}

/** The mean of `values`; 0 for none. Pure. */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}
