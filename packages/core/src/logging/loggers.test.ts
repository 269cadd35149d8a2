import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatLogLine, stderrLogger } from './loggers';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('formatLogLine', () => {
  it('gives the level, the message and the context as JSON on one line', () => {
    expect(formatLogLine('warning', 'Could not append a turn.', { sessionId: 's1', code: 'READ_ONLY' })).toBe(
      '[reverie] warning: Could not append a turn. {"sessionId":"s1","code":"READ_ONLY"}',
    );
    expect(formatLogLine('error', 'Failed.')).toBe('[reverie] error: Failed.');
    expect(formatLogLine('error', 'Failed.', {})).toBe('[reverie] error: Failed.');
  });

  it('shows an Error by its message and survives a context it cannot serialise', () => {
    expect(formatLogLine('warning', 'x', { error: new Error('disk full') })).toBe('[reverie] warning: x {"error":"disk full"}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(formatLogLine('warning', 'x', cyclic)).toBe('[reverie] warning: x [object Object]');
  });
});

describe('stderrLogger', () => {
  it('writes warnings and errors to stderr, and nothing for debug and info', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    stderrLogger.debug('d');
    stderrLogger.info('i');
    stderrLogger.warn('w', { a: 1 });
    stderrLogger.error('e');
    expect(warn.mock.calls).toEqual([['[reverie] warning: w {"a":1}']]);
    expect(error.mock.calls).toEqual([['[reverie] error: e']]);
    expect(info).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });
});
