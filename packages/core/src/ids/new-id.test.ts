import { describe, expect, it } from 'vitest';
import { assertValidId, ID_PATTERN, isValidId, newId } from './new-id';

describe('newId', () => {
  it('makes 12 lowercase hex characters, different every time', () => {
    const ids = Array.from({ length: 10_000 }, newId);
    for (const id of ids) expect(id).toMatch(ID_PATTERN);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('validates ids', () => {
    expect(isValidId('0123456789ab')).toBe(true);
    expect(isValidId('0123456789AB')).toBe(false);
    expect(isValidId('0123456789a')).toBe(false);
    expect(() => assertValidId('nope')).toThrow(expect.objectContaining({ code: 'INVALID_ID' }));
  });
});
