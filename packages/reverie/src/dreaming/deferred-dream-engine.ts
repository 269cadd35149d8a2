import type { DreamEngine, DreamEngineOptions, DreamPass, DreamServices, ServiceName } from '@reverie/dream';
import type { DreamingOptions } from './dream-options';
import { dreamPassNames } from './dream-pass-catalog';

type EngineCalls =
  | 'run'
  | 'retry'
  | 'apply'
  | 'pendingPlans'
  | 'listRuns'
  | 'show'
  | 'changes'
  | 'history'
  | 'lockState'
  | 'undo'
  | 'recover'
  | 'applyOperations';

/**
 * The dream engine of one instance, with its passes and model gateway loaded at the first call
 * that needs them (`run`, `lockState`, …) rather than with `import('reverie')`: a process that
 * serves turns never loads the passes until its first cycle (docs/architecture.md, "What loads
 * lazily"). The options were validated by `.build()`, so loading cannot turn up a new error.
 * `passNames` is known without loading: the catalogue's passes whose switch is on, and the host's.
 */
export class DeferredDreamEngine implements Pick<DreamEngine, EngineCalls | 'passNames'> {
  readonly passNames: string[];
  private loading: Promise<DreamEngine> | undefined;

  constructor(
    private readonly services: DreamServices,
    private readonly options: DreamingOptions,
    private readonly protectedSkills: readonly string[],
    private readonly engineOptions: DreamEngineOptions,
    readonly hostPasses: readonly DreamPass[] = [],
  ) {
    this.passNames = dreamPassNames(options, hostPasses);
  }

  /** Whether the engine was given the service a pass may require. */
  hasService(service: ServiceName): boolean {
    return this.services[service] !== undefined;
  }

  run(...args: Parameters<DreamEngine['run']>) {
    return this.engine().then((engine) => engine.run(...args));
  }

  retry(...args: Parameters<DreamEngine['retry']>) {
    return this.engine().then((engine) => engine.retry(...args));
  }

  apply(...args: Parameters<DreamEngine['apply']>) {
    return this.engine().then((engine) => engine.apply(...args));
  }

  pendingPlans() {
    return this.engine().then((engine) => engine.pendingPlans());
  }

  listRuns() {
    return this.engine().then((engine) => engine.listRuns());
  }

  show(...args: Parameters<DreamEngine['show']>) {
    return this.engine().then((engine) => engine.show(...args));
  }

  changes(...args: Parameters<DreamEngine['changes']>) {
    return this.engine().then((engine) => engine.changes(...args));
  }

  history(...args: Parameters<DreamEngine['history']>) {
    return this.engine().then((engine) => engine.history(...args));
  }

  lockState() {
    return this.engine().then((engine) => engine.lockState());
  }

  undo(...args: Parameters<DreamEngine['undo']>) {
    return this.engine().then((engine) => engine.undo(...args));
  }

  recover() {
    return this.engine().then((engine) => engine.recover());
  }

  applyOperations(...args: Parameters<DreamEngine['applyOperations']>) {
    return this.engine().then((engine) => engine.applyOperations(...args));
  }

  private engine(): Promise<DreamEngine> {
    this.loading ??= Promise.all([import('@reverie/dream'), import('./create-dream-passes')]).then(
      ([{ DreamEngine }, { createDreamPasses }]) =>
        new DreamEngine(this.services, createDreamPasses(this.options, this.protectedSkills, this.hostPasses), this.engineOptions),
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }
}
