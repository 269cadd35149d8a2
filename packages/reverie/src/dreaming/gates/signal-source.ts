/**
 * Where the signal gate learns how many memories are waiting for promotion (SPEC O3, O4): the
 * recall-signal store counts entries not yet promoted whose recall count and score reach the
 * thresholds.
 */
export interface SignalSource {
  unpromotedCandidates(options: { minRecallCount: number; minScore: number }): Promise<number>;
}
