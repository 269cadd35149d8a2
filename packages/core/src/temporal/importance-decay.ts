import { invalidOptions, optionIssues } from '../options/invalid-options';
import { z } from 'zod';
import { describeIssues } from '../schemas/parse-record';
import { timestampMs } from './merge-temporal';

/** Milliseconds in a day; decay counts days as exact 24-hour spans, independent of time zones. */
export const DAY_MS = 86_400_000;

/** SPEC D7: how importance fades for memories that are not seen again. */
export interface DecayOptions {
  /** Days after `lastSeenAt` during which importance does not decay at all. */
  graceDays: number;
  /** Days of post-grace time that halve importance. Zero or less disables decay. */
  halfLifeDays: number;
  /** Decay never takes importance below this value. */
  floor: number;
}

export const DEFAULT_DECAY_OPTIONS: Readonly<DecayOptions> = Object.freeze({
  graceDays: 30,
  halfLifeDays: 45,
  floor: 0.1,
});

/** The stretch of time to decay over, as ISO timestamps. */
export interface DecayWindow {
  /** When the memory was last observed; decay only starts `graceDays` after it. */
  lastSeenAt: string;
  /** When decay was last applied to this entry (`lastSeenAt` if it never was). */
  from: string;
  /** The moment to decay up to (usually now). */
  to: string;
}

function clampUnit(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/**
 * SPEC D7 as an options object (every field optional, defaults 30 / 45 / 0.1): what
 * `.withMemory({ decay })` and the stores accept. One setting drives the stores' browse order,
 * the dream passes and the CLI, so they all read the same curve.
 */
export const decayOptionsSchema = z
  .object({
    /** Days after `lastSeenAt` during which importance does not decay at all (default 30). */
    graceDays: z.number().finite().nonnegative().default(DEFAULT_DECAY_OPTIONS.graceDays),
    /** Days of post-grace time that halve importance; 0 or less turns decay off (default 45). */
    halfLifeDays: z.number().default(DEFAULT_DECAY_OPTIONS.halfLifeDays),
    /** Decay never takes importance below this value (default 0.1). */
    floor: z.number().min(0).max(1).default(DEFAULT_DECAY_OPTIONS.floor),
  })
  .strict();

/**
 * Validates decay options (`decayOptionsSchema`: unknown keys, wrong types, a negative grace or
 * a floor outside [0, 1] are INVALID_OPTIONS naming the field) and fills in the defaults. Stores
 * call it once, in their constructor.
 */
export function resolveDecayOptions(options: Partial<DecayOptions> = {}): DecayOptions {
  const parsed = decayOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    throw invalidOptions(
      `Invalid decay options: ${describeIssues(parsed.error)}. Give { graceDays >= 0, halfLifeDays (<= 0 turns decay off), floor in [0, 1] } or leave them out for 30 / 45 / 0.1.`,
      optionIssues(parsed.error),
      { cause: parsed.error },
    );
  }
  return resolveOptions(parsed.data);
}

/** Fills in defaults and rejects grace periods and floors that make no sense. */
function resolveOptions(options: Partial<DecayOptions>): DecayOptions {
  const resolved: DecayOptions = {
    graceDays: options.graceDays ?? DEFAULT_DECAY_OPTIONS.graceDays,
    halfLifeDays: options.halfLifeDays ?? DEFAULT_DECAY_OPTIONS.halfLifeDays,
    floor: options.floor ?? DEFAULT_DECAY_OPTIONS.floor,
  };
  if (!Number.isFinite(resolved.graceDays) || resolved.graceDays < 0) {
    throw invalidOptions(`graceDays must be a finite number >= 0, got ${resolved.graceDays}.`, [
      { path: 'graceDays', message: 'must be a finite number >= 0' },
    ]);
  }
  if (!Number.isFinite(resolved.floor) || resolved.floor < 0 || resolved.floor > 1) {
    throw invalidOptions(`floor must be a number in [0, 1], got ${resolved.floor}.`, [
      { path: 'floor', message: 'must be a number in [0, 1]' },
    ]);
  }
  if (Number.isNaN(resolved.halfLifeDays)) {
    throw invalidOptions('halfLifeDays must be a number (<= 0 disables decay).', [{ path: 'halfLifeDays', message: 'must be a number' }]);
  }
  return resolved;
}

/**
 * Days of decaying time in the window: the part of [from, to] that lies after the grace period,
 * i.e. the length of [max(from, lastSeenAt + graceDays), to], or 0 when that is empty.
 */
export function decayingDays(window: DecayWindow, graceDays: number): number {
  const graceEnd = timestampMs(window.lastSeenAt) + graceDays * DAY_MS;
  const start = Math.max(timestampMs(window.from), graceEnd);
  return Math.max(0, timestampMs(window.to) - start) / DAY_MS;
}

/**
 * SPEC D7: importance after decaying over `window`. Only time after `lastSeenAt + graceDays`
 * counts; each `halfLifeDays` of it halves the importance, which never drops below `floor`.
 * An importance already under the floor is returned unchanged (decay never raises a value),
 * and `halfLifeDays <= 0` disables decay. The result is clamped to [0, 1].
 *
 * `from` is when decay was last applied to the entry, so applying decay over [a, b] and then
 * [b, c] gives the same value as applying it once over [a, c]: a store may decay as often as it
 * likes without fading memories faster. Pure: it never reads the clock.
 */
export function decayImportance(importance: number, window: DecayWindow, options: Partial<DecayOptions> = DEFAULT_DECAY_OPTIONS): number {
  const resolved = resolveOptions(options);
  if (resolved.halfLifeDays <= 0 || importance < resolved.floor) return clampUnit(importance);
  return decayMs(importance, timestampMs(window.lastSeenAt), timestampMs(window.from), timestampMs(window.to), resolved);
}

/** The arithmetic of `decayImportance` on instants in milliseconds and resolved options. */
function decayMs(importance: number, lastSeenMs: number, fromMs: number, toMs: number, options: DecayOptions): number {
  const { graceDays, halfLifeDays, floor } = options;
  if (halfLifeDays <= 0 || importance < floor) return clampUnit(importance);
  const days = Math.max(0, toMs - Math.max(fromMs, lastSeenMs + graceDays * DAY_MS)) / DAY_MS;
  if (days === 0) return clampUnit(importance);
  return clampUnit(Math.max(floor, importance * 0.5 ** (days / halfLifeDays)));
}

/** What `effectiveImportance` reads of an entry. */
export interface DecayingImportance {
  importance: number;
  lastSeenAt: string;
  /** When `importance` was set; without it the stored value counts as of `lastSeenAt`. */
  importanceAt?: string | undefined;
}

/**
 * SPEC D7 at read time: the importance an entry has at `at`, from its stored `importance`, the
 * instant that value was set (`importanceAt`, else `lastSeenAt`) and the decay options. Nothing
 * is rewritten as time passes: search, browsing, the passes and the CLI all call this, and a
 * store keeps the stored pair until something else rewrites the entry. Since decay composes,
 * this is the value a pass that rewrote the entry at every cycle would have stored by `at`.
 * Pure: it never reads the clock.
 */
export function effectiveImportance(entry: DecayingImportance, at: Date, options: Partial<DecayOptions> = DEFAULT_DECAY_OPTIONS): number {
  const to = at.toISOString();
  return decayImportance(entry.importance, { lastSeenAt: entry.lastSeenAt, from: entry.importanceAt ?? entry.lastSeenAt, to }, options);
}

/**
 * The entry with its importance decayed to `at` and stamped `importanceAt = at`, or the entry
 * itself when nothing has decayed. The same value as `effectiveImportance`, stored: what a
 * writer that rewrites an entry anyway (a merge, a reword) hands the store, so the decay so far
 * is kept and later reads decay only the time after `at`.
 */
export function withEffectiveImportance<T extends DecayingImportance>(
  entry: T,
  at: Date,
  options: Partial<DecayOptions> = DEFAULT_DECAY_OPTIONS,
): T {
  const importance = effectiveImportance(entry, at, options);
  return importance === entry.importance ? entry : decayedCopy(entry, importance, at.toISOString());
}

/**
 * `withEffectiveImportance` at one instant for many entries (a pass that looks at every entry):
 * the options are resolved and `at` formatted once. Same values as `withEffectiveImportance`.
 */
export function withEffectiveImportanceAt(
  at: Date,
  options: Partial<DecayOptions> = DEFAULT_DECAY_OPTIONS,
): <T extends DecayingImportance>(entry: T) => T {
  const importanceOf = effectiveImportanceAt(at, options);
  const importanceAt = at.toISOString();
  return (entry) => {
    const importance = importanceOf(entry);
    return importance === entry.importance ? entry : decayedCopy(entry, importance, importanceAt);
  };
}

/**
 * The entry with `importance` and `importanceAt` set. Copied with `Object.assign` rather than a
 * spread: in V8 a spread that adds a key the entry lacks (`importanceAt`) gives every copy a
 * hidden class of its own, about 350 bytes per copy (27 MiB for a pass over 78,000 aging
 * entries); `Object.assign` copies share one.
 */
function decayedCopy<T extends DecayingImportance>(entry: T, importance: number, importanceAt: string): T {
  return Object.assign({}, entry, { importance, importanceAt });
}

/**
 * `effectiveImportance` at one instant for many stored entries (a store's browse): the options
 * are resolved once and the entry's timestamps read without re-validation, since a store's
 * entries were validated when saved. Same values as `effectiveImportance`.
 */
export function effectiveImportanceAt(
  at: Date,
  options: Partial<DecayOptions> = DEFAULT_DECAY_OPTIONS,
): (entry: DecayingImportance) => number {
  const resolved = resolveOptions(options);
  const toMs = at.getTime();
  return (entry) => {
    const lastSeenMs = Date.parse(entry.lastSeenAt);
    return decayMs(
      entry.importance,
      lastSeenMs,
      entry.importanceAt === undefined ? lastSeenMs : Date.parse(entry.importanceAt),
      toMs,
      resolved,
    );
  };
}
