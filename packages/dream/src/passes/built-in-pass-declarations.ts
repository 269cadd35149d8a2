import type { PassDeclaration } from '../engine/pass-declaration';
import { promotionPass, recallSignalsPass } from '../recall/recall-options';
import { tierMigrationPass } from '../tiers/tier-options';
import { archiveRetentionPass } from './archive-retention/archive-retention-options';
import { episodeExtractionPass } from './episode-extraction/episode-extraction-options';
import { importanceDecayPass } from './importance-decay/importance-decay-options';
import { memoryConsolidationPass } from './memory-consolidation/memory-consolidation-options';
import { preferenceInferencePass } from './preference-inference/preference-inference-options';
import { skillConsolidationPass } from './skill-consolidation/skill-consolidation-options';
import { skillGapPass } from './skill-gap/skill-gap-options';
import { skillOptimizationPass } from './skill-optimization/skill-optimization-options';
import { workflowFailureAnalysisPass } from './workflow-failure-analysis/workflow-failure-analysis-options';

/** SPEC "Pass names and order": the built-in passes' declarations, in the order a cycle runs them. */
export const BUILT_IN_PASSES: readonly PassDeclaration[] = [
  importanceDecayPass,
  recallSignalsPass,
  memoryConsolidationPass,
  episodeExtractionPass,
  skillGapPass,
  skillConsolidationPass,
  skillOptimizationPass,
  workflowFailureAnalysisPass,
  preferenceInferencePass,
  promotionPass,
  tierMigrationPass,
  archiveRetentionPass,
];
