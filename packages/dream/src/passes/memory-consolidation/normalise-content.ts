import { describeSubjectTime, type MemoryEntry } from '@reverie/core';

/** SPEC D17: retention hints that may travel with a note; never part of what is saved. */
const HINT = String.raw`\[(?:skip|correction|permanent|durable|ephemeral)\]`;
/** A hint before punctuation or a line end takes the spaces before it… */
const HINT_BEFORE_STOP = new RegExp(String.raw`[ \t]*${HINT}(?=[ \t]*(?:[,.;:!?)]|$))`, 'gim');
/** …any other hint takes the spaces after it. */
const HINT_ELSEWHERE = new RegExp(String.raw`${HINT}[ \t]*`, 'gi');
const DIGIT = /\p{Nd}/u;
const SPACE = /\s/u;
/** Separators that belong to a number when a digit stands on both sides: 3.5, 1,000, 10:30, 2026-06-14, 06/14. */
const NUMBER_SEPARATOR = /^[.,:/-]$/;

/** Removes retention hints (`[durable]`, `[skip]`…), tidying the spaces they leave behind. */
export function stripRetentionTags(text: string): string {
  return text.replace(HINT_BEFORE_STOP, '').replace(HINT_ELSEWHERE, '').trim();
}

/**
 * The form under which two contents count as the same statement (SPEC B7): retention hints
 * removed, Unicode NFKC, lower case, punctuation turned into spaces, whitespace collapsed.
 * Punctuation that carries meaning is kept: `%`, separators inside numbers (`3.5` must not
 * become `35`), and a minus sign starting a number (`-5` is not `5`). Symbols (`+`, `$`, `€`)
 * are kept. Pure.
 */
export function normaliseContent(text: string): string {
  return stripRetentionTags(text)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\p{P}/gu, (char: string, offset: number, whole: string) => {
      const before = whole[offset - 1] ?? '';
      const after = whole[offset + 1] ?? '';
      if (char === '%') return char;
      if (NUMBER_SEPARATOR.test(char) && DIGIT.test(before) && DIGIT.test(after)) return char;
      if (char === '-' && DIGIT.test(after) && (before === '' || SPACE.test(before))) return char;
      return ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The identity of an entry for duplicate detection: its normalised content plus its subject
 * time, so look-alike notes about different real-world moments (two trips "to Paris" with
 * different dates) never count as the same. Undefined when nothing is left after
 * normalisation: such entries are never grouped.
 */
export function duplicateKey(entry: Pick<MemoryEntry, 'content' | 'metadata'>): string | undefined {
  const content = normaliseContent(entry.content);
  if (content === '') return undefined;
  return `${content}\u0000${describeSubjectTime(entry.metadata) ?? ''}`;
}

/**
 * A 32-bit hash of a `duplicateKey` (FNV-1a over its UTF-16 code units), small enough to sit in
 * an object or a Map key without a heap allocation: a run over every entry keeps one per item
 * instead of the normalised text. Equal keys have equal hashes; equal hashes are checked by
 * comparing the keys.
 */
export function duplicateKeyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  return hash | 0;
}
