import {
  ArchiveRetentionPass,
  type DreamPass,
  EpisodeExtractionPass,
  ImportanceDecayPass,
  MemoryConsolidationPass,
  PreferenceInferencePass,
  PromotionPass,
  RecallSignalsPass,
  SkillConsolidationPass,
  SkillGapPass,
  SkillOptimizationPass,
  TierMigrationPass,
  WorkflowFailureAnalysisPass,
} from '@reverie/dream';
import type { DreamingOptions } from './dream-options';
import { inCycleOrder } from './dream-pass-catalog';

/**
 * The passes of a cycle in cycle order: the built-in ones in SPEC order ("Pass names and
 * order"), built from the validated dreaming options, and the host's passes after the built-in
 * ones of their phase. A pass whose switch is off is left out (`plan()` says why). The skill
 * passes get the `.withSkills({ protected })` patterns.
 */
export function createDreamPasses(
  options: DreamingOptions,
  protectedSkills: readonly string[],
  hostPasses: readonly DreamPass[] = [],
): DreamPass[] {
  const skillPass = <T extends { enabled: boolean }>(passOptions: T) => ({
    ...withoutSwitch(passOptions),
    protectedSkills: [...protectedSkills],
  });
  const passes: Array<DreamPass | false> = [
    new ImportanceDecayPass(options.importanceDecay),
    new RecallSignalsPass(options.recallSignals),
    new MemoryConsolidationPass(options.consolidation),
    new EpisodeExtractionPass(options.episodes),
    options.skillGap.enabled && new SkillGapPass(skillPass(options.skillGap)),
    options.skillConsolidation.enabled && new SkillConsolidationPass(skillPass(options.skillConsolidation)),
    options.skillOptimization.enabled && new SkillOptimizationPass(skillPass(options.skillOptimization)),
    options.workflowFailureAnalysis.enabled && new WorkflowFailureAnalysisPass(skillPass(options.workflowFailureAnalysis)),
    options.preferenceInference.enabled && new PreferenceInferencePass(withoutSwitch(options.preferenceInference)),
    new PromotionPass(options.promotion, options.recallSignals),
    options.tiers.enabled && new TierMigrationPass(withoutSwitch(options.tiers), options.recallSignals),
    new ArchiveRetentionPass(options.archive),
  ];
  return inCycleOrder([...passes.filter((pass): pass is DreamPass => pass !== false), ...hostPasses]);
}

function withoutSwitch<T extends { enabled: boolean }>({ enabled: _enabled, ...rest }: T): Omit<T, 'enabled'> {
  return rest;
}
