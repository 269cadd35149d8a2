import { describe, expect, it } from 'vitest';
import { DREAM_LOCK_CLASS, dreamLockKeys } from './dream-lock-keys';

describe('dreamLockKeys', () => {
  it('puts every scope under the dream lock class with a 32-bit key that never changes', () => {
    // Pinned: processes of different releases sharing one server must agree on every scope's key.
    expect(dreamLockKeys('user:42')).toEqual([DREAM_LOCK_CLASS, -364915653]);
    expect(dreamLockKeys('default')).toEqual([DREAM_LOCK_CLASS, 933818049]);
    expect(DREAM_LOCK_CLASS).toBe(0x52764472);
  });

  it('gives a thousand scopes a thousand keys', () => {
    const keys = new Set(Array.from({ length: 1000 }, (_, index) => dreamLockKeys(`user:${index}`)[1]));
    expect(keys.size).toBe(1000);
  });
});
