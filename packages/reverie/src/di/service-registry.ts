import type { DreamPass } from '@reverie/dream';
import type { ReverieContainer } from './reverie-container';
import { TOKENS } from './tokens';

export type Factory = (registry: ServiceRegistry) => unknown;

/**
 * Where one instance's services are registered and resolved, by token: Reverie's own container
 * (`ServiceContainer`, no dependency injection library involved) or, when the host passes its
 * tsyringe container, a child of it (`HostContainerRegistry`).
 */
export interface ServiceRegistry {
  /** Registers `value` behind `token`, replacing what was there. */
  registerValue(token: symbol, value: unknown): void;
  /** Registers a factory behind `token`; it runs once, at the first `resolve`. */
  registerFactory(token: symbol, factory: Factory): void;
  isRegistered(token: symbol): boolean;
  resolve<T>(token: symbol): T;
  /** Whether the host registered a service under `token` (in its container), to be used in place of the default. */
  hostProvides(token: symbol): boolean;
  /** The dream passes the host registered under `TOKENS.DreamPass`. */
  hostPasses(): unknown[];
  /** The host's child container the instance works in, when the host gave one. */
  readonly container: ReverieContainer | undefined;
}

/**
 * A child of the host's tsyringe container (SPEC E2): what the host registered in its container
 * is seen through it (and an `@injectable()` class is constructed there, so its own `@inject`ed
 * dependencies resolve, Reverie's clock and logger among them); what Reverie builds is
 * registered in the child, so the host resolves the same instances from `reverie.container`.
 */
export class HostContainerRegistry implements ServiceRegistry {
  constructor(
    /** The host's container, whose registrations are the host's. */
    private readonly host: ReverieContainer,
    /** The child the instance works in. */
    readonly container: ReverieContainer,
  ) {}

  registerValue(token: symbol, value: unknown): void {
    this.container.register(token, { useValue: value });
  }

  registerFactory(token: symbol, factory: Factory): void {
    let made: { value: unknown } | undefined;
    // Cached only once made: a factory that threw runs again at the next resolve.
    this.container.register(token, {
      useFactory: () => {
        made ??= { value: factory(this) };
        return made.value;
      },
    });
  }

  isRegistered(token: symbol): boolean {
    return this.container.isRegistered(token, true);
  }

  resolve<T>(token: symbol): T {
    return this.container.resolve<T>(token);
  }

  hostProvides(token: symbol): boolean {
    return this.host.isRegistered(token, true);
  }

  hostPasses(): DreamPass[] {
    return this.hostProvides(TOKENS.DreamPass) ? this.container.resolveAll(TOKENS.DreamPass) : [];
  }
}
