import type { Token } from '@reverie/core';

/**
 * The part of a tsyringe `DependencyContainer` Reverie uses: pass your application's container
 * (`import { container } from 'tsyringe'`) as `createReverie({ container })`. Declared here so
 * that a project without tsyringe type-checks; tsyringe's container fits it as it is.
 */
export interface ReverieContainer {
  createChildContainer(): ReverieContainer;
  register<T>(token: symbol, provider: { useValue: T } | { useFactory: (container: never) => T }): unknown;
  isRegistered(token: symbol, recursive?: boolean): boolean;
  resolve<T>(token: Token<T>): T;
  resolveAll<T>(token: Token<T>): T[];
}

const METHODS = ['createChildContainer', 'register', 'isRegistered', 'resolve', 'resolveAll'] as const;

/** Whether `value` has the methods of a tsyringe container that Reverie calls. */
export function isReverieContainer(value: unknown): value is ReverieContainer {
  return (
    typeof value === 'object' &&
    value !== null &&
    METHODS.every((method) => typeof (value as Record<string, unknown>)[method] === 'function')
  );
}
