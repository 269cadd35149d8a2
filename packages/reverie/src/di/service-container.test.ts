import { describe, expect, it } from 'vitest';
import { ReverieError } from '@reverie/core';
import { ServiceContainer } from './service-container';

const TOKEN = Symbol('token');
const OTHER = Symbol('other');

describe('ServiceContainer', () => {
  it('resolves a registered value, and knows what is registered', () => {
    const container = new ServiceContainer();
    expect(container.isRegistered(TOKEN)).toBe(false);
    container.registerValue(TOKEN, 'value');
    expect(container.isRegistered(TOKEN)).toBe(true);
    expect(container.isRegistered(OTHER)).toBe(false);
    expect(container.resolve(TOKEN)).toBe('value');
  });

  it('treats a value registered as undefined as registered', () => {
    const container = new ServiceContainer();
    container.registerValue(TOKEN, undefined);
    expect(container.isRegistered(TOKEN)).toBe(true);
    expect(container.resolve(TOKEN)).toBeUndefined();
  });

  it('runs a factory once, at the first resolve, with the container, and caches what it made', () => {
    const container = new ServiceContainer();
    container.registerValue(OTHER, 2);
    let calls = 0;
    container.registerFactory(TOKEN, (c) => {
      calls += 1;
      return { doubled: c.resolve<number>(OTHER) * 2 };
    });
    expect(calls).toBe(0);
    const first = container.resolve<{ doubled: number }>(TOKEN);
    expect(first).toEqual({ doubled: 4 });
    expect(container.resolve(TOKEN)).toBe(first);
    expect(calls).toBe(1);
  });

  it('runs a factory that threw again at the next resolve', () => {
    const container = new ServiceContainer();
    let calls = 0;
    container.registerFactory(TOKEN, () => {
      calls += 1;
      if (calls === 1) throw new Error('disk not ready');
      return 'made';
    });
    expect(() => container.resolve(TOKEN)).toThrow('disk not ready');
    expect(container.resolve(TOKEN)).toBe('made');
    expect(calls).toBe(2);
  });

  it('lets the last registration of a token win, value or factory', () => {
    const container = new ServiceContainer();
    container.registerFactory(TOKEN, () => 'from the factory');
    container.registerValue(TOKEN, 'the value');
    expect(container.resolve(TOKEN)).toBe('the value');
    container.registerFactory(TOKEN, () => 'the new factory');
    expect(container.resolve(TOKEN)).toBe('the new factory');
  });

  it('refuses to resolve a token nothing is registered for, with a ReverieError', () => {
    const container = new ServiceContainer();
    expect(() => container.resolve(TOKEN)).toThrow(ReverieError);
    expect(() => container.resolve(TOKEN)).toThrow(/Nothing is registered for Symbol\(token\)/);
  });

  it('shares nothing between two containers', () => {
    const a = new ServiceContainer();
    const b = new ServiceContainer();
    a.registerValue(TOKEN, 'a');
    expect(b.isRegistered(TOKEN)).toBe(false);
  });
});
