import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration';

describe('parseDuration', () => {
  it.each([
    [300000, 300000],
    ['5m', 300000],
    ['4h', 14_400_000],
    ['1h30m', 5_400_000],
    ['90s', 90_000],
    ['250ms', 250],
    ['1d', 86_400_000],
    ['1500', 1500],
  ])('reads %j as %d ms', (input, expected) => {
    expect(parseDuration(input)).toBe(expected);
  });

  it.each([['soon'], ['5 minutes'], ['-5m'], [''], [-1], [Number.NaN], ['4h and more']])('refuses %j', (input) => {
    expect(parseDuration(input)).toBeUndefined();
  });
});
