import { TOKENS } from '@reverie/core';
import { describeServiceNeeds, type ServiceName } from '@reverie/dream/options';
import type { DreamingOptions } from './dream-options';

export type DreamPhase = 'light-sleep' | 'rem' | 'deep-sleep';

export interface DreamPassDescriptor {
  /** The public name used by `run({ passes })`, the CLI, the ledger and reports. */
  name: string;
  phase: DreamPhase;
  /** Services without which the pass is skipped (SPEC D2). */
  requires: readonly symbol[];
  /** Whether the pass needs the host's language model to do its work. */
  model: 'required' | 'optional' | 'none';
  /** For `model: 'optional'`: what the pass still does without one. */
  withoutModel?: string;
  /** The switch in the dreaming options that turns the pass off, if any. */
  switch?: keyof Pick<
    DreamingOptions,
    'skillGap' | 'skillConsolidation' | 'skillOptimization' | 'preferenceInference' | 'workflowFailureAnalysis' | 'tiers'
  >;
  spec: string;
}

/** SPEC "Pass names and order": every pass of a cycle, in the order a cycle runs them. */
export const DREAM_PASSES: readonly DreamPassDescriptor[] = [
  { name: 'importance-decay', phase: 'light-sleep', requires: [TOKENS.LongTermMemory], model: 'none', spec: 'D7' },
  { name: 'recall-signals', phase: 'light-sleep', requires: [TOKENS.LongTermMemory], model: 'none', spec: 'O4, B1' },
  {
    name: 'memory-consolidation',
    phase: 'rem',
    requires: [TOKENS.LongTermMemory],
    model: 'optional',
    withoutModel: 'the deterministic merge of exact and near-exact duplicates only',
    spec: 'D3–D5, B7',
  },
  { name: 'episode-extraction', phase: 'rem', requires: [TOKENS.LongTermMemory, TOKENS.ConversationLog], model: 'required', spec: 'D6' },
  {
    name: 'skill-gap',
    phase: 'rem',
    requires: [TOKENS.SkillStore, TOKENS.ConversationLog],
    model: 'required',
    switch: 'skillGap',
    spec: 'D8',
  },
  {
    name: 'skill-consolidation',
    phase: 'rem',
    requires: [TOKENS.SkillStore, TOKENS.SkillUsageStore],
    model: 'required',
    switch: 'skillConsolidation',
    spec: 'D9',
  },
  {
    name: 'skill-optimization',
    phase: 'rem',
    requires: [TOKENS.SkillStore, TOKENS.SkillUsageStore, TOKENS.FeedbackStore],
    model: 'required',
    switch: 'skillOptimization',
    spec: 'D10',
  },
  {
    name: 'workflow-failure-analysis',
    phase: 'rem',
    requires: [TOKENS.WorkflowLog, TOKENS.SkillStore],
    model: 'optional',
    withoutModel: 'factual failure notes written by the host, and promotion candidates',
    switch: 'workflowFailureAnalysis',
    spec: 'D12',
  },
  {
    name: 'preference-inference',
    phase: 'rem',
    requires: [TOKENS.LongTermMemory, TOKENS.ConversationLog],
    model: 'required',
    switch: 'preferenceInference',
    spec: 'D11',
  },
  { name: 'promotion', phase: 'deep-sleep', requires: [TOKENS.LongTermMemory], model: 'none', spec: 'O4' },
  { name: 'tier-migration', phase: 'deep-sleep', requires: [TOKENS.LongTermMemory], model: 'none', switch: 'tiers', spec: 'O1, B13' },
  { name: 'archive-retention', phase: 'deep-sleep', requires: [], model: 'none', spec: 'O7, O8' },
];

/**
 * The names of the passes a cycle has with these options, in cycle order: every pass of the
 * catalog whose switch is on. `createDreamPasses` builds exactly these (a test holds them equal);
 * the names are known here without loading the passes.
 */
export function dreamPassNames(options: DreamingOptions): string[] {
  return DREAM_PASSES.filter((pass) => !pass.switch || options[pass.switch].enabled).map((pass) => pass.name);
}

export interface DreamPassPlan {
  name: string;
  phase: DreamPhase;
  status: 'would-run' | 'skipped';
  /** Why the pass is skipped, or what it will leave out. */
  reason?: string;
}

/** The engine's name of the service behind each token a pass requires. */
const SERVICE_OF_TOKEN = new Map<symbol, ServiceName>([
  [TOKENS.LongTermMemory, 'memory'],
  [TOKENS.ConversationLog, 'conversationLog'],
  [TOKENS.SkillStore, 'skills'],
  [TOKENS.SkillUsageStore, 'skillUsage'],
  [TOKENS.FeedbackStore, 'feedback'],
  [TOKENS.WorkflowLog, 'workflowLog'],
]);

/**
 * Which passes a cycle would run with the services that are registered (SPEC D2): a pass the
 * engine does not have, whose required services are missing, that needs a model when none is
 * configured, or whose switch is off, is skipped with the reason. Pure: the builder passes what
 * it registered and the names of the engine's passes.
 */
export function planDreamPasses(
  isRegistered: (token: symbol) => boolean,
  hasModel: boolean,
  options: DreamingOptions,
  available: readonly string[],
): DreamPassPlan[] {
  return DREAM_PASSES.map((pass) => {
    const base = { name: pass.name, phase: pass.phase };
    if (!available.includes(pass.name)) {
      return { ...base, status: 'skipped', reason: 'not part of this release of the dream engine yet' };
    }
    if (pass.switch && !options[pass.switch].enabled) {
      return { ...base, status: 'skipped', reason: `turned off by the dreaming option ${pass.switch}.enabled` };
    }
    const missing = pass.requires.filter((token) => !isRegistered(token));
    if (missing.length > 0) {
      // The cycle report says the same (`describeServiceNeeds`, SPEC D2).
      return { ...base, status: 'skipped', reason: describeServiceNeeds(missing.map((token) => SERVICE_OF_TOKEN.get(token)!)) };
    }
    if (pass.model === 'required' && !hasModel) {
      return { ...base, status: 'skipped', reason: 'needs a language model (createReverie({ model }))' };
    }
    if (pass.model === 'optional' && !hasModel) {
      return { ...base, status: 'would-run', reason: `without a model: ${pass.withoutModel}` };
    }
    return { ...base, status: 'would-run' };
  });
}
