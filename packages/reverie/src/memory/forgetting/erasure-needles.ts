import { contentExcerpt } from '@reverie/core/internal';
import { foldText } from './forget-selector';

/**
 * SPEC B14, erase: the texts an erasure looks for, folded (lower case, runs of white space one
 * space): each erased entry's content and the start of it a lineage excerpt keeps (without its
 * "…"). Empty texts are left out. Pure.
 */
export function erasureNeedles(contents: readonly string[]): string[] {
  const needles = new Set<string>();
  for (const content of contents) {
    const folded = foldText(content);
    if (folded === '') continue;
    needles.add(folded);
    const excerpt = contentExcerpt(content);
    if (excerpt.endsWith('…')) {
      const start = foldText(excerpt.slice(0, -1));
      if (start !== '') needles.add(start);
    }
  }
  return [...needles];
}

/** True when `text` holds one of `needles` in any letter case and spacing. Pure. */
export function holdsNeedle(text: string, needles: readonly string[]): boolean {
  if (needles.length === 0) return false;
  const folded = foldText(text);
  return needles.some((needle) => folded.includes(needle));
}

/** What scrubbing a JSON value left: nothing (`drop`), the value as it was, or a rewritten one. */
export type Scrubbed = { drop: true } | { drop: false; changed: boolean; value: unknown };

/**
 * A JSON value without any string that holds a needle (`holdsNeedle`), keys never compared: a
 * string that holds one is dropped; an array loses the elements that are dropped; an object with
 * a field that is dropped is dropped whole (a record that held the text goes, rather than being
 * left half). So a lineage's `ancestors` lose the one that held an erased excerpt, a log line
 * holding it goes, and a memory entry holding it goes. Pure.
 */
export function scrubJson(value: unknown, needles: readonly string[]): Scrubbed {
  if (typeof value === 'string') return holdsNeedle(value, needles) ? { drop: true } : { drop: false, changed: false, value };
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    let changed = false;
    for (const element of value) {
      const scrubbed = scrubJson(element, needles);
      if (scrubbed.drop) {
        changed = true;
        continue;
      }
      changed ||= scrubbed.changed;
      kept.push(scrubbed.value);
    }
    return { drop: false, changed, value: changed ? kept : value };
  }
  if (value !== null && typeof value === 'object') {
    const fields: Array<[string, unknown]> = [];
    let changed = false;
    for (const [key, field] of Object.entries(value)) {
      const scrubbed = scrubJson(field, needles);
      if (scrubbed.drop) return { drop: true };
      changed ||= scrubbed.changed;
      fields.push([key, scrubbed.value]);
    }
    return { drop: false, changed, value: changed ? Object.fromEntries(fields) : value };
  }
  return { drop: false, changed: false, value };
}
