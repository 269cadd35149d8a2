import { BUILT_IN_PASSES, DREAM_PHASES, describeServiceNeeds, type PassDeclaration, type ServiceName } from '@reverie/dream/options';
import type { DreamingOptions } from './dream-options';

/** The dreaming options that turn a built-in pass off. */
type PassSwitch = keyof Pick<
  DreamingOptions,
  'skillGap' | 'skillConsolidation' | 'skillOptimization' | 'preferenceInference' | 'workflowFailureAnalysis' | 'tiers'
>;

/** Which dreaming option turns each switchable built-in pass off (the others always run). */
const SWITCH_OF_PASS = new Map<string, PassSwitch>([
  ['skill-gap', 'skillGap'],
  ['skill-consolidation', 'skillConsolidation'],
  ['skill-optimization', 'skillOptimization'],
  ['workflow-failure-analysis', 'workflowFailureAnalysis'],
  ['preference-inference', 'preferenceInference'],
  ['tier-migration', 'tiers'],
]);

/** A pass of the catalogue: its declaration (with the pass, in `@reverie/dream`), its switch, and whether the host added it. */
export interface DreamPassDescriptor extends PassDeclaration {
  switch?: PassSwitch;
  /** True for a pass the host added (`withDreaming({ passes })` or `TOKENS.DreamPass`). */
  host: boolean;
}

/**
 * Passes in cycle order: by phase (SPEC O1), and within a phase in the order given — the
 * built-in passes in SPEC order ("Pass names and order"), then the host's in the order it gave
 * them. One ordering for the catalogue and for the passes the engine runs.
 */
export function inCycleOrder<T extends Pick<PassDeclaration, 'phase'>>(passes: readonly T[]): T[] {
  return [...passes].sort((a, b) => DREAM_PHASES.indexOf(a.phase) - DREAM_PHASES.indexOf(b.phase));
}

/** The catalogue of a cycle: every built-in pass and the host's passes, in cycle order, built from their declarations. */
export function dreamPassCatalog(hostPasses: readonly PassDeclaration[] = []): DreamPassDescriptor[] {
  return inCycleOrder([
    ...BUILT_IN_PASSES.map((pass) => {
      const passSwitch = SWITCH_OF_PASS.get(pass.name);
      return { ...pass, host: false, ...(passSwitch ? { switch: passSwitch } : {}) };
    }),
    ...hostPasses.map((pass) => ({ ...declarationOf(pass), host: true })),
  ]);
}

/**
 * The names of the passes a cycle has with these options, in cycle order: every pass of the
 * catalogue whose switch is on. `createDreamPasses` builds exactly these (a test holds them
 * equal); the names are known here without loading the passes.
 */
export function dreamPassNames(options: DreamingOptions, hostPasses: readonly PassDeclaration[] = []): string[] {
  return dreamPassCatalog(hostPasses)
    .filter((pass) => !pass.switch || options[pass.switch].enabled)
    .map((pass) => pass.name);
}

export interface DreamPassPlan {
  name: string;
  phase: PassDeclaration['phase'];
  status: 'would-run' | 'skipped';
  /** Why the pass is skipped, or what it will leave out. */
  reason?: string;
  /** True for a pass the host added. */
  host: boolean;
}

/**
 * Which passes a cycle would run with the services that are registered (SPEC D2): a pass the
 * engine does not have, whose required services are missing, that needs a model when none is
 * configured, or whose switch is off, is skipped with the reason. Pure: the builder passes which
 * services it has, the names of the engine's passes and the host's passes.
 */
export function planDreamPasses(
  hasService: (service: ServiceName) => boolean,
  hasModel: boolean,
  options: DreamingOptions,
  available: readonly string[],
  hostPasses: readonly PassDeclaration[] = [],
): DreamPassPlan[] {
  return dreamPassCatalog(hostPasses).map((pass) => {
    const base = { name: pass.name, phase: pass.phase, host: pass.host };
    if (!available.includes(pass.name)) {
      return { ...base, status: 'skipped', reason: 'not part of this release of the dream engine yet' };
    }
    if (pass.switch && !options[pass.switch].enabled) {
      return { ...base, status: 'skipped', reason: `turned off by the dreaming option ${pass.switch}.enabled` };
    }
    const missing = pass.requires.filter((service) => (service === 'model' ? !hasModel : !hasService(service)));
    if (missing.length > 0) {
      // The cycle report says the same (`describeServiceNeeds`, SPEC D2).
      return { ...base, status: 'skipped', reason: describeServiceNeeds(missing) };
    }
    if (pass.model === 'required' && !hasModel) {
      return { ...base, status: 'skipped', reason: 'needs a language model (createReverie({ model }))' };
    }
    if (pass.model === 'optional' && !hasModel) {
      return { ...base, status: 'would-run', reason: `without a model: ${pass.withoutModel ?? 'the part that needs no model'}` };
    }
    return { ...base, status: 'would-run' };
  });
}

/** Only the declaration's fields of a pass object (not its methods or state). */
function declarationOf(pass: PassDeclaration): PassDeclaration {
  const { name, phase, requires, model, withoutModel, spec } = pass;
  return { name, phase, requires, model, ...(withoutModel === undefined ? {} : { withoutModel }), ...(spec === undefined ? {} : { spec }) };
}
