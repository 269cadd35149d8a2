import { ReverieError, idSchema, MAX_SEARCH_TEXT_LENGTH, type MemoryEntry, memoryDocumentText, parseOptions } from '@reverie/core';
import { isSystemCategory, queryWords } from '@reverie/core/internal';
import { z } from 'zod';

/** The most ids one forget names. */
export const MAX_FORGET_IDS = 1000;

const phrase = z
  .string()
  .max(MAX_SEARCH_TEXT_LENGTH, `is at most ${MAX_SEARCH_TEXT_LENGTH} characters`)
  .refine((text) => termsOf(text).length > 0, 'needs at least one word that is not a stop word ("the", "is", …)');

/**
 * SPEC B14: what `forget` takes away. Exactly one of: `ids` (entries by id), `text` (every entry
 * whose content holds these words, in any letter case), `subject` (every entry about a name or
 * phrase: each of its words, in any of its forms, is in the entry's content, tags or category —
 * the words recall matches on).
 */
export const forgetSelectorSchema = z.union([
  z.object({ ids: z.array(idSchema).min(1).max(MAX_FORGET_IDS) }).strict(),
  z.object({ text: phrase }).strict(),
  z.object({ subject: phrase }).strict(),
]);
export type ForgetSelector = z.infer<typeof forgetSelectorSchema>;

/**
 * `soft` (the default): out of recall at once, undoable, not learnt again. `erase`: every copy of
 * the entries' text removed, a tombstone of keyed hashes left (docs/reliability.md, "Forgetting").
 */
export const forgetOptionsSchema = z.object({ mode: z.enum(['soft', 'erase']).default('soft') }).strict();
export type ForgetOptions = z.input<typeof forgetOptionsSchema>;

/**
 * The selector from the separate fields a tool, a server operation or a command line takes
 * (absent or null when not given): INVALID_INPUT unless exactly one is given. `what` names the
 * caller in the message. Pure.
 */
export function selectorFrom(
  fields: { ids?: string[] | null | undefined; text?: string | null | undefined; subject?: string | null | undefined },
  what: string,
): ForgetSelector {
  const given: ForgetSelector[] = [
    ...(fields.ids == null ? [] : [{ ids: fields.ids }]),
    ...(fields.text == null ? [] : [{ text: fields.text }]),
    ...(fields.subject == null ? [] : [{ subject: fields.subject }]),
  ];
  if (given.length !== 1) {
    throw new ReverieError('INVALID_INPUT', `${what} takes exactly one of ids, text or subject (it was given ${given.length}).`);
  }
  return given[0]!;
}

/** The selector, validated (INVALID_OPTIONS with `details.issues`). */
export function parseForgetSelector(selector: unknown): ForgetSelector {
  return parseOptions(
    forgetSelectorSchema,
    selector,
    'forget selector',
    'Pass exactly one of { ids: [...] }, { text: "words in the entry" } or { subject: "a name or phrase" }.',
  );
}

/** The options, validated (INVALID_OPTIONS with `details.issues`). */
export function parseForgetOptions(options: unknown): z.output<typeof forgetOptionsSchema> {
  return parseOptions(
    forgetOptionsSchema,
    options ?? {},
    'forget options',
    "mode is 'soft' (the default: undoable) or 'erase' (every copy removed, not undoable).",
  );
}

/**
 * The words of a text as recall matches them: lower case, stop words dropped, each word as its
 * stem (`queryWords`: "Researched" and "research" are one term). Pure.
 */
export function termsOf(text: string): string[] {
  return [...new Set(queryWords(text).map((word) => word.forms[0] ?? word.word))];
}

/** Lower case with runs of white space made one space: what a `text` selector compares. Pure. */
export function foldText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * True when `entry` is selected. `_system/` entries are Reverie's own and never are. A `text`
 * selector matches the content ignoring letter case and spacing; a `subject` needs every one of
 * its terms among the terms of the entry's content, tags and category. Pure.
 */
export function selects(selector: ForgetSelector, entry: MemoryEntry): boolean {
  if (isSystemCategory(entry.category)) return false;
  if ('ids' in selector) return selector.ids.includes(entry.id);
  if ('text' in selector) return foldText(entry.content).includes(foldText(selector.text));
  const terms = new Set(termsOf(memoryDocumentText(entry)));
  return termsOf(selector.subject).every((term) => terms.has(term));
}
