import { z } from 'zod';
import { ReverieValidationError } from '../errors/reverie-error';

/**
 * Parses `value` with `schema` at a boundary, turning a zod failure into a ReverieError with
 * code INVALID_INPUT whose message lists every problem by field.
 */
export function parseRecord<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ReverieValidationError('INVALID_INPUT', `Invalid ${what}: ${describeIssues(result.error)}`, {
    cause: result.error,
    details: { issues: result.error.issues },
  });
}

/** One line per zod issue, `field.path: message`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/**
 * Why `text` cannot be stored by every backend, or undefined when it can: a NUL character
 * (PostgreSQL's text refuses it), a lone UTF-16 surrogate (half of a character such as an emoji,
 * cut off: not Unicode text, and turned into U+FFFD on its way into any UTF-8 store), or a
 * leading byte-order mark (PGlite's protocol decoder drops it from the start of a value).
 */
export function unstorableTextProblem(text: string): string | undefined {
  if (text.startsWith('\ufeff'))
    return 'starts with a byte-order mark (U+FEFF), which some PostgreSQL clients (PGlite) drop on the way back: remove it';
  const nul = text.indexOf('\u0000');
  if (nul >= 0) return `holds a NUL character (U+0000) at position ${nul}, which no store keeps: remove it`;
  const lone = LONE_SURROGATE.exec(text);
  if (lone) {
    const code = lone[0].charCodeAt(0).toString(16).toUpperCase();
    return `holds a lone UTF-16 surrogate (U+${code}) at position ${lone.index}, half of a character cut off, which is not Unicode text: remove it or replace it with U+FFFD`;
  }
  return undefined;
}

// In a /u expression a surrogate pair is one code point, so \p{Cs} matches only a lone half.
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

/**
 * `text` made storable by every backend (see `unstorableTextProblem`): each lone UTF-16
 * surrogate becomes U+FFFD (what a UTF-8 store would make of it anyway), NUL characters and a
 * leading byte-order mark are dropped. For text a caller cannot be asked to fix — a user's message
 * on its way into the conversation log or a search — so that it is kept rather than refused. The
 * same string when there is nothing to change. Pure.
 */
export function toStorableText(text: string): string {
  if (unstorableTextProblem(text) === undefined) return text;
  return text
    .replace(LONE_SURROGATES, '\uFFFD')
    .replaceAll('\u0000', '')
    .replace(/^\ufeff+/, '');
}

/**
 * `parseRecord` for what a caller asks a store to write or search: also refuses (INVALID_INPUT,
 * naming the field) any string in it, object keys included, that `unstorableTextProblem` finds,
 * so every backend accepts and refuses the same text. Records read back are parsed with
 * `parseRecord`, which does not look: data written before this check stays readable.
 */
export function parseDraft<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = parseRecord(schema, value, what);
  const found = findUnstorableText(parsed, []);
  if (found) {
    const path = found.path.join('.');
    throw new ReverieValidationError('INVALID_INPUT', `Invalid ${what}: ${path ? `${path} ` : ''}${found.message}`, {
      details: { issues: [{ path: found.path, message: found.message }] },
    });
  }
  return parsed;
}

function findUnstorableText(value: unknown, path: Array<string | number>): { path: Array<string | number>; message: string } | undefined {
  if (typeof value === 'string') {
    const message = unstorableTextProblem(value);
    return message === undefined ? undefined : { path, message };
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorableText(item, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = unstorableTextProblem(key);
      if (keyProblem) return { path: [...path, key], message: `(the key) ${keyProblem}` };
      const found = findUnstorableText(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}
