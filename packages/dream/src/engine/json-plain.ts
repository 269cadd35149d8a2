/**
 * `value` as a JSON round trip would give it back: `value` itself when it is already plain JSON
 * (strings, finite numbers, booleans, null, arrays and plain objects of them, no `undefined`),
 * else `JSON.parse(JSON.stringify(value))`. A pass's commit data goes through it, so a direct run
 * commits exactly what a saved plan would, without copying data that is plain already (the
 * initial consolidation cycle commits a fingerprint per entry).
 */
export function asJsonRoundTrip(value: unknown): unknown {
  return isPlainJson(value, []) ? value : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** True when JSON would give `value` back unchanged; `within` holds the containers above it (a cycle is not plain). */
function isPlainJson(value: unknown, within: object[]): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (within.includes(value)) return false;
  within.push(value);
  const plain = Array.isArray(value) ? isPlainArray(value, within) : isPlainObject(value, within);
  within.pop();
  return plain;
}

function isPlainArray(array: readonly unknown[], within: object[]): boolean {
  if (Object.getPrototypeOf(array) !== Array.prototype) return false;
  for (let index = 0; index < array.length; index++) {
    if (!(index in array) || !isPlainJson(array[index], within)) return false;
  }
  return true;
}

function isPlainObject(object: object, within: object[]): boolean {
  const prototype = Object.getPrototypeOf(object) as unknown;
  if ((prototype !== Object.prototype && prototype !== null) || Object.getOwnPropertySymbols(object).length > 0) return false;
  for (const key in object) {
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    if (!descriptor || !('value' in descriptor) || !isPlainJson(descriptor.value, within)) return false;
  }
  return true;
}
