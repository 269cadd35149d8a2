import { invalidOptions } from '@reverie/core';
import type { ServiceRegistry } from '../di/service-registry';
import { TOKEN_ROLES } from '../di/token-roles';

/**
 * SPEC B8 with the host's container: each scope of `buildScopes()` resolves its stores in a
 * child container of its own, so a store the host registered per container (a factory, a class
 * with `Lifecycle.ContainerScoped` or `Transient`) is one per scope. A store registered as one
 * instance (`useValue`, a singleton) would mix the scopes' data: the scope that would share it is
 * refused at its first `scopes.get()`, and closed.
 */
export class SharedStoreCheck {
  private readonly owners = new WeakMap<object, string>();

  check(scope: string, registry: ServiceRegistry, instance: { close(): Promise<void> }): void {
    for (const [token, { name, role }] of TOKEN_ROLES) {
      if (role.kind !== 'service' || role.shared || !registry.hostProvides(token) || !registry.isRegistered(token)) continue;
      const store = registry.resolve<object>(token);
      const owner = this.owners.get(store);
      if (owner !== undefined && owner !== scope) {
        void instance.close();
        throw invalidOptions(
          `Your container gave scope ${JSON.stringify(scope)} the same TOKENS.${name} instance as scope ${JSON.stringify(owner)}: register it so that each container makes its own (a factory that reads TOKENS.Scope, or a class with Lifecycle.ContainerScoped), see docs/configuration.md.`,
          [{ path: `container(TOKENS.${name})`, message: 'one instance would be shared by every scope' }],
        );
      }
      this.owners.set(store, scope);
    }
  }
}
