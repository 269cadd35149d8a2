import { ReverieValidationError } from '../errors/reverie-error';

/** The longest scope, in characters. */
export const MAX_SCOPE_LENGTH = 128;

/** What to do about a scope that is not one: the advice every refusal of a scope ends with. */
export const SCOPE_ADVICE = `use letters, digits and . _ : @ + = | - (up to ${MAX_SCOPE_LENGTH} characters), such as "user:42"`;

/** Letters, digits and `. _ : @ + = | -`, starting with a letter or digit. */
const SCOPE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@+=|-]*$/;

/**
 * Returns why `value` is not a valid scope (SPEC B8), or undefined when it is. A scope names
 * whose memory this is — `user:42`, `agent:billing`, `tenant-7|user-9` — in every store and
 * every dream cycle. Pure.
 */
export function scopeProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'it is not a string';
  if (value.length === 0) return 'it is empty';
  if (value.length > MAX_SCOPE_LENGTH) return `it is ${value.length} characters long (at most ${MAX_SCOPE_LENGTH})`;
  if (!SCOPE_PATTERN.test(value)) {
    return /^[A-Za-z0-9]/.test(value)
      ? 'it contains a character other than ASCII letters, digits and . _ : @ + = | -'
      : 'it does not start with an ASCII letter or a digit';
  }
  return undefined;
}

/** Throws INVALID_SCOPE unless `value` is a valid scope such as `user:42`. */
export function validateScope(value: unknown): string {
  const problem = scopeProblem(value);
  if (problem) {
    throw new ReverieValidationError(
      'INVALID_SCOPE',
      `Invalid scope ${typeof value === 'string' ? JSON.stringify(value) : String(value)}: ${problem}; ${SCOPE_ADVICE}.`,
      { details: { value, problem } },
    );
  }
  return value as string;
}

/** Kept as they are in a scope's folder name; every other character is written as `%XX`. */
const PLAIN = /[a-z0-9._-]/;
/** Folder names Windows reserves for devices (`con`, `aux.1`, `com3`…). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/;

/**
 * The folder a file store keeps a scope's data in (below `<dataPath>/scopes/`). One scope, one
 * folder, and back: capitals and punctuation other than `. _ -` are percent-encoded with
 * upper-case hex (`User:42` → `%55ser%3A42`), so two scopes never share a folder, even on a file
 * system that ignores case; a name Windows reserves has its first letter encoded. Pure.
 */
export function scopeFolderName(scope: string): string {
  validateScope(scope);
  let folder = '';
  for (const char of scope) {
    folder += PLAIN.test(char) ? char : `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (WINDOWS_RESERVED.test(folder)) folder = `%${folder.charCodeAt(0).toString(16).toUpperCase()}${folder.slice(1)}`;
  return folder;
}

/** The scope whose folder is `folder`, or undefined when `folder` is not one `scopeFolderName` makes. Pure. */
export function scopeFromFolderName(folder: string): string | undefined {
  if (!/^(?:[a-z0-9._-]|%[0-9A-F]{2})+$/.test(folder)) return undefined;
  const scope = folder.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  if (scopeProblem(scope) !== undefined) return undefined;
  return scopeFolderName(scope) === folder ? scope : undefined;
}
