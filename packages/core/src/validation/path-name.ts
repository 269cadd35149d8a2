import { ReverieValidationError } from '../errors/reverie-error';

/**
 * Categories, skill names and working-memory keys become file paths in the file stores, so they
 * share one set of rules: slash-separated segments, each a portable file name.
 */
export interface PathNameRules {
  /** Longest whole value, in characters. */
  maxLength: number;
  /** Longest single segment, in characters. */
  maxSegmentLength: number;
  /** Fewest segments (working-memory keys need a namespace of two plus a name). */
  minSegments: number;
}

export const CATEGORY_RULES: PathNameRules = { maxLength: 200, maxSegmentLength: 64, minSegments: 1 };
export const SKILL_NAME_RULES: PathNameRules = { maxLength: 128, maxSegmentLength: 64, minSegments: 1 };
export const WORKING_MEMORY_KEY_RULES: PathNameRules = { maxLength: 256, maxSegmentLength: 96, minSegments: 3 };

// Control characters, plus characters that are not portable in file names.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARACTER = /[\u0000-\u001f\u007f-\u009f\\:*?"<>|]/;

/** Characters that look like "/" or "." to a reader but are not: a name with one misleads. */
const CONFUSABLE_SEPARATOR = /[\u2215\u2044\u29f8\u29f9\uff0f\uff3c\u2024\u2025\ufe52\uff0e]/u;
/** Half of a surrogate pair with no other half (in a /u expression a pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/u;
/** Bidirectional controls: they reorder how a name is displayed, so it reads as something else. */
const BIDI_CONTROL = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/u;
/** Characters that show nothing: two names that look the same would be different files. */
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each invisible character is listed alone, on purpose
  /[\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200d\u2060-\u2064\u206a-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]/u;
/** Names Windows reserves for devices, with or without an extension (`CON`, `aux.txt`, `COM1`). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\..*)?$/i;

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Returns why `value` is not a valid slash path under `rules`, or undefined when it is.
 * Pure; used by the validators below and by stores that want to report instead of throw.
 */
export function pathNameProblem(value: unknown, rules: PathNameRules): string | undefined {
  if (typeof value !== 'string') return 'it is not a string';
  if (value.length === 0) return 'it is empty';
  if (value.length > rules.maxLength) return `it is ${value.length} characters long (at most ${rules.maxLength})`;
  if (value.startsWith('/')) return 'it is an absolute path (it starts with "/")';
  const forbidden = FORBIDDEN_CHARACTER.exec(value);
  if (forbidden) {
    const char = forbidden[0];
    return char === '\\'
      ? 'it contains a backslash (use "/" to separate segments)'
      : `it contains the character ${JSON.stringify(char)} (control characters and \\ : * ? " < > | are not allowed)`;
  }
  const lone = LONE_SURROGATE.exec(value);
  if (lone)
    return `it contains ${codePoint(lone[0])}, half of a character cut off (a lone UTF-16 surrogate), which no file system stores as given`;
  const confusable = CONFUSABLE_SEPARATOR.exec(value);
  if (confusable) {
    return `it contains ${codePoint(confusable[0])}, which looks like "/" or "." but is not (type the plain character, or leave it out)`;
  }
  const bidi = BIDI_CONTROL.exec(value);
  if (bidi) return `it contains the bidirectional control ${codePoint(bidi[0])}, which makes a name display as something else`;
  const invisible = INVISIBLE.exec(value);
  if (invisible) return `it contains the invisible character ${codePoint(invisible[0])}, which makes two names look the same`;
  const segments = value.split('/');
  if (segments.length < rules.minSegments) {
    return `it has ${segments.length} segment(s) (at least ${rules.minSegments} are needed)`;
  }
  for (const segment of segments) {
    if (segment.length === 0) return 'it has an empty segment ("//" or a trailing "/")';
    if (segment === '.' || segment === '..') return `it has a "${segment}" segment`;
    if (segment.startsWith('.')) return `the segment "${segment}" starts with "." (reserved for internal folders)`;
    if (segment.trim() !== segment) return `the segment ${JSON.stringify(segment)} starts or ends with whitespace`;
    if (segment.endsWith('.'))
      return `the segment ${JSON.stringify(segment)} ends with "." (Windows drops it, so two names would share one file)`;
    if (WINDOWS_RESERVED.test(segment)) {
      return `the segment ${JSON.stringify(segment)} is a device name Windows reserves (CON, PRN, AUX, NUL, COM1–9, LPT1–9), whatever its case or extension`;
    }
    if (segment.length > rules.maxSegmentLength) {
      return `a segment is ${segment.length} characters long (at most ${rules.maxSegmentLength})`;
    }
  }
  return undefined;
}

/** Throws INVALID_CATEGORY unless `value` is a valid category such as `user-preferences/timezone`. */
export function validateCategory(value: unknown): string {
  const problem = pathNameProblem(value, CATEGORY_RULES);
  if (problem) {
    throw new ReverieValidationError(
      'INVALID_CATEGORY',
      `Invalid category ${describe(value)}: ${problem}. Use slash-separated names such as "project-context/billing".`,
      { details: { value, problem } },
    );
  }
  return value as string;
}

/** Throws INVALID_NAME unless `value` is a valid skill name such as `mcp/email`. */
export function validateSkillName(value: unknown): string {
  const problem = pathNameProblem(value, SKILL_NAME_RULES);
  if (problem) {
    throw new ReverieValidationError(
      'INVALID_NAME',
      `Invalid skill name ${describe(value)}: ${problem}. Use slash-separated names such as "mcp/email".`,
      { details: { value, problem } },
    );
  }
  return value as string;
}

/** Throws INVALID_KEY unless `value` is a full working-memory key such as `session/abc/inbox`. */
export function validateWorkingMemoryKey(value: unknown): string {
  const problem = pathNameProblem(value, WORKING_MEMORY_KEY_RULES);
  if (problem) {
    throw new ReverieValidationError(
      'INVALID_KEY',
      `Invalid working-memory key ${describe(value)}: ${problem}. Keys are full paths: a two-segment namespace and a name, such as "session/abc123/inbox".`,
      { details: { value, problem } },
    );
  }
  return value as string;
}

/**
 * The existing name that `value` would collide with on a case-insensitive file system (macOS,
 * Windows): one whose path, or a leading part of it, differs from `value`'s only in case
 * (`Work/Notes` against `work/todo` clashes on `work`). Undefined when there is none. Pure.
 */
export function caseCollision(value: string, existing: Iterable<string>): string | undefined {
  const mine = value.split('/');
  for (const other of existing) {
    const theirs = other.split('/');
    for (let i = 0; i < Math.min(mine.length, theirs.length); i++) {
      if (mine[i] === theirs[i]) continue;
      if (mine[i]!.toLowerCase() === theirs[i]!.toLowerCase()) return theirs.slice(0, i + 1).join('/');
      break;
    }
  }
  return undefined;
}

/** True when `category` equals `prefix` or lies below it (`a/b` is under `a`, `ab` is not). */
export function isUnderPrefix(category: string, prefix: string): boolean {
  const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return trimmed === '' || category === trimmed || category.startsWith(`${trimmed}/`);
}

/** The category tree the host keeps its own state under (dream runs, cursors, logs); no model or agent tool writes there. */
export const SYSTEM_CATEGORY = '_system';

/** True when `category` is `_system` or below it. */
export function isSystemCategory(category: string): boolean {
  return isUnderPrefix(category.trim(), SYSTEM_CATEGORY);
}

function describe(value: unknown): string {
  if (typeof value !== 'string') return `(${value === null ? 'null' : typeof value})`;
  const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
  return JSON.stringify(shown);
}
