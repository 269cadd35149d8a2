import { stripRetentionTags } from './normalise-content';

/**
 * A token: a number with its inner separators (`3.5`, `1,000`, `10:30`, `2026-06-14`), or a run
 * of letters and digits with an optional apostrophe part (`O'Brien`, `Alice's`).
 */
const TOKEN = /\p{N}+(?:[.,:/-]\p{N}+)*|[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+)?/gu;
/** What separates two sentences (or a heading and its text): after it, capitals mean nothing. */
const SENTENCE_BREAK = /[.!?:\n]/;
const POSSESSIVE = /['’]s$/i;
const FIRST_PERSON = /^I(?:['’]\p{L}+)?$/u;

interface Token {
  text: string;
  start: number;
  end: number;
}

function tokens(text: string): Token[] {
  return [...text.matchAll(TOKEN)].map((match) => ({ text: match[0], start: match.index, end: match.index + match[0].length }));
}

/** `Alice's` → `Alice`: a possessive names the same thing. */
function base(token: string): string {
  return token.replace(POSSESSIVE, '');
}

/**
 * The facts a merge must keep (SPEC B4): every token of `text` that holds a digit (a number, a
 * date, a time, a version) and every capitalised word that does not open a sentence (a name:
 * `Berlin`, `Alice`, `PostgreSQL`). The first word of the text and any word after `.`, `!`,
 * `?`, `:` or a line break is skipped, as is the pronoun `I`. Retention hints are ignored.
 * Possessives are reduced (`Alice's` → `Alice`). Unique, in order of appearance. Pure.
 */
export function factTokens(text: string): string[] {
  const stripped = stripRetentionTags(text);
  const facts = new Set<string>();
  let previousEnd: number | undefined;
  for (const token of tokens(stripped)) {
    const opensSentence = previousEnd === undefined || SENTENCE_BREAK.test(stripped.slice(previousEnd, token.start));
    previousEnd = token.end;
    const word = base(token.text);
    if (/\p{N}/u.test(word)) facts.add(word);
    else if (!opensSentence && /^\p{Lu}/u.test(word) && !FIRST_PERSON.test(word)) facts.add(word);
  }
  return [...facts];
}

/**
 * The facts of `sources` that `merged` lost: each must appear in `merged` as a whole token
 * (`Berlin` is not kept by `Berliner`, `35` is not kept by `350`); words compare without case.
 * Unique, in order of appearance. Pure.
 */
export function missingFacts(sources: readonly string[], merged: string): string[] {
  const present = new Set(tokens(stripRetentionTags(merged)).map((token) => base(token.text).toLowerCase()));
  const missing = new Set<string>();
  for (const source of sources) {
    for (const fact of factTokens(source)) if (!present.has(fact.toLowerCase())) missing.add(fact);
  }
  return [...missing];
}
