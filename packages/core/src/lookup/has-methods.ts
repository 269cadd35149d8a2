/**
 * True when `value` is an object with a function under every one of `methods`, its own or
 * inherited (a class instance's methods live on its prototype): how a host's store, logger or
 * model is recognised before it is used. The names are the code's own, never user text.
 */
export function hasMethods(value: unknown, methods: readonly string[]): boolean {
  return typeof value === 'object' && value !== null && methods.every((method) => typeof Reflect.get(value, method) === 'function');
}
