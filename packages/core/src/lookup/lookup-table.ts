/**
 * User text is data: a word, name, category, key or id must never be looked up in a plain object,
 * where "constructor", "toString" or "__proto__" find what `Object.prototype` holds instead of
 * nothing (SPEC M2: one memory holding the word "constructor" once made a whole store unreadable).
 * Tables keyed by such text are `Map`s; these two helpers are what the code uses where a table is
 * clearer written as an object literal, or where a record parsed from JSON is keyed by text.
 * `packages/core/test/own-key-lookups.test.ts` fails on any new lookup of text in a plain object.
 */

/** A constant table written as an object literal, as a `ReadonlyMap` (only its own keys are in it). */
export function lookupTable<V>(entries: Readonly<Record<string, V>>): ReadonlyMap<string, V> {
  return new Map(Object.entries(entries));
}

/** `record[key]` when `key` is the record's own property, else undefined (never what `Object.prototype` holds). */
export function ownValue<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Sets `record[key] = value` as an own data property, even for `"__proto__"` (where an assignment
 * would replace the record's prototype instead). Returns the record.
 */
export function setOwn<V>(record: Record<string, V>, key: string, value: V): Record<string, V> {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  return record;
}
