import { describe, expect, it } from 'vitest';
import { relativeDateWindow } from './relative-dates';

describe('relativeDateWindow: seasons', () => {
  it.each([
    ['last summer', '2022-11-09', '2022-06-01', '2022-08-31'],
    ['last summer', '2022-07-15', '2021-06-01', '2021-08-31'],
    ['last winter', '2022-11-09', '2021-12-01', '2022-02-28'],
    ['next spring', '2024-01-10', '2024-03-01', '2024-05-31'],
    ['next winter', '2022-11-09', '2022-12-01', '2023-02-28'],
    ['last fall', '2023-01-20', '2022-09-01', '2022-11-30'],
  ])('%s said on %s: %s to %s', (phrase, anchor, from, to) => {
    expect(relativeDateWindow(phrase, anchor)).toEqual({ from, to });
  });
});
