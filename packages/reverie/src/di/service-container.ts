import { ReverieError } from '@reverie/core';
import type { Factory, ServiceRegistry } from './service-registry';

/**
 * The services of one Reverie instance, by token: a value, or a factory called at the first
 * `resolve` and cached. The builder makes one per `.build()`, so two instances share nothing.
 * Every service is registered by token (a symbol from `TOKENS`), never by class, so no decorator
 * or type metadata is involved. Used when the host gives no container of its own: the host then
 * provides nothing through it (`.use()` and the options still do).
 */
export class ServiceContainer implements ServiceRegistry {
  readonly container = undefined;
  private readonly values = new Map<symbol, unknown>();
  private readonly factories = new Map<symbol, Factory>();

  /** Registers `value` behind `token`, replacing what was there. */
  registerValue(token: symbol, value: unknown): void {
    this.factories.delete(token);
    this.values.set(token, value);
  }

  /** Registers a factory behind `token`, replacing what was there; it runs once, at the first `resolve`. */
  registerFactory(token: symbol, factory: Factory): void {
    this.values.delete(token);
    this.factories.set(token, factory);
  }

  isRegistered(token: symbol): boolean {
    return this.values.has(token) || this.factories.has(token);
  }

  resolve<T>(token: symbol): T {
    if (this.values.has(token)) return this.values.get(token) as T;
    const factory = this.factories.get(token);
    if (factory === undefined) {
      throw new ReverieError(
        'INTERNAL',
        `Nothing is registered for ${String(token)}: check isRegistered(token) before resolving an optional service.`,
      );
    }
    // Cached only once made: a factory that threw runs again at the next resolve.
    const made = factory(this);
    this.factories.delete(token);
    this.values.set(token, made);
    return made as T;
  }

  hostProvides(): boolean {
    return false;
  }

  hostPasses(): unknown[] {
    return [];
  }
}
