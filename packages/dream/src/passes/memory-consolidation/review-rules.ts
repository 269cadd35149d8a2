import type { FactVerdict } from '../../review/fact-check';
import type { FactCheckJob } from '../../review/fact-check-stage';
import type { Protection } from './protection';

/** What the guards of a call need besides the reply. */
export interface ReviewRules {
  protection: Protection;
  /** The sources of a merge that are not similar to the rest (empty when they all are). */
  unconnected(ids: readonly string[]): string[];
  /** Whether two entries say related things by their text (a shared category is not enough): a supersession's pair (SPEC B9). */
  relatedByText(a: string, b: string): boolean;
  /** The share of the first entry's terms the second one has (`SourceSimilarity.coverage`). */
  coverage(a: string, b: string): number;
  /** The fact check of one save (`checkMergeFacts` unless the pass judged the reply beforehand). */
  factCheck?: (job: FactCheckJob) => FactVerdict;
}
