import { z } from 'zod';

const UNIT_MS: ReadonlyMap<string, number> = new Map([
  ['ms', 1],
  ['s', 1000],
  ['m', 60_000],
  ['h', 3_600_000],
  ['d', 86_400_000],
]);

/**
 * Parses a duration given as milliseconds or as a string such as `'90s'`, `'5m'`, `'4h'`,
 * `'1d'` or `'1h30m'`. Returns undefined for anything else.
 */
export function parseDuration(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const pattern = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let consumed = 0;
  for (const match of trimmed.matchAll(pattern)) {
    total += Number(match[1]) * UNIT_MS.get(match[2]!)!;
    consumed += match[0].length;
  }
  return consumed === trimmed.length && consumed > 0 ? total : undefined;
}

/** A zod schema for a duration option: ms or a string like `'4h'`, parsed to ms. */
export const durationSchema = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const ms = parseDuration(value);
  if (ms === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `${JSON.stringify(value)} is not a duration: use milliseconds or a string such as "30s", "5m", "4h"`,
    });
    return z.NEVER;
  }
  return ms;
});
