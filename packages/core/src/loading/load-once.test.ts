import { describe, expect, it } from 'vitest';
import { loadOnce } from './load-once';

describe('loadOnce', () => {
  it('loads at the first call, not before, and hands later calls the same promise', async () => {
    let loads = 0;
    const load = loadOnce(async () => ({ loaded: ++loads }));
    expect(loads).toBe(0);
    const first = load();
    expect(load()).toBe(first);
    expect(await first).toEqual({ loaded: 1 });
    expect(await load()).toBe(await first);
    expect(loads).toBe(1);
  });

  it('loads again after a failed load', async () => {
    let loads = 0;
    const load = loadOnce(async () => {
      if (++loads === 1) throw new Error('not there yet');
      return loads;
    });
    await expect(load()).rejects.toThrow('not there yet');
    expect(await load()).toBe(2);
    expect(await load()).toBe(2);
  });
});
