import { ReverieValidationError } from '../errors/reverie-error';

/** Memory ids are 12 lowercase hex characters (48 random bits). */
export const ID_PATTERN = /^[0-9a-f]{12}$/;

/** A fresh random memory id: 12 lowercase hex characters. */
export function newId(): string {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  let id = '';
  for (const byte of bytes) id += byte.toString(16).padStart(2, '0');
  return id;
}

export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

/** Throws INVALID_ID unless `value` is a well-formed memory id. */
export function assertValidId(value: unknown): string {
  if (!isValidId(value)) {
    throw new ReverieValidationError(
      'INVALID_ID',
      `Invalid memory id ${JSON.stringify(value)}: ids are 12 lowercase hex characters, such as "3f9a0c1b2d4e". Use the id a save or search returned.`,
      { details: { value } },
    );
  }
  return value;
}
