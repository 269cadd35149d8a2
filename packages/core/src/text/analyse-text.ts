// Over 400 lines on purpose: one tokeniser and term classifier whose cases (abbreviations, dates,
// numbers, names, function words) must agree on where a term starts and ends; its word tables are
// in files of their own.
import { LONGEST_ABBREVIATION, lookupAbbreviation, mayStartAbbreviation } from './abbreviations';
import { matchDate } from './date-terms';
import {
  ANAPHORIC_NOUNS,
  DEMONSTRATIVES,
  FUNCTION_WORDS,
  GENERIC_SUBJECTS,
  NEGATION_PHRASES,
  NEGATION_SKIP_WORDS,
  NEGATION_WORDS,
  NEGATIVE_VERBS,
  PREFERENCE_VERBS,
  SENTENCE_START_WORDS,
} from './function-words';
import { matchNumber } from './number-terms';
import { stemWord } from './stem-word';
import { type RawToken, tokeniseText } from './tokenise-text';
import { noWork, type WorkMeter } from './work-meter';

export type TermKind = 'word' | 'name' | 'number' | 'date' | 'negation' | 'modality';

/** One fact-bearing piece of a text, normalised. */
export interface Term {
  kind: TermKind;
  /** What it means, normalised: a stem ("prefer"), "1000", "12:30", "2024-03-05", "not eat". */
  key: string;
  /** How the text wrote it (for messages). */
  text: string;
  /** A date said relative to the day it was written ("last week", "3 days ago"). */
  relative?: boolean;
  /** A relative date written out against its day ("the week before 2023-07-16"): the phrase it stands for and the day. */
  anchored?: { phrase: string; day: string };
  /** Index of its sentence in the text. */
  sentence: number;
  /** Index of its clause: sentences split further at commas and conjunctions ("and", "but"…). */
  clause: number;
  /**
   * The reach of a negation or a modality: the keys of the terms it negates, or that it says are
   * only planned, wished or possible (`NEGATION_SCOPE` at most, one sentence).
   */
  scope?: string[];
}

/** How many terms after a negation it is taken to reach ("does not drink coffee": drink, coffee). */
export const NEGATION_SCOPE = 3;

/** What a text says, normalised (see `analyseText`). */
export interface TextAnalysis {
  /** Fact-bearing terms in reading order; function words are left out. */
  terms: Term[];
  /** Words and numbers read, function words included. */
  tokenCount: number;
  /** Function words read (the generic subject "user" is not one: it makes no sentence). */
  functionWordCount: number;
  /** Distinct keys per kind. `words` holds every content word, names included. */
  words: string[];
  names: string[];
  numbers: string[];
  dates: string[];
  negations: string[];
  /** The phrases that say something is only planned, wished or possible ("plans to", "might"), as written. */
  modalities: string[];
  /** Pairs of words joined by "and", "or" or "&" ("peanuts and shellfish"). */
  pairs: [string, string][];
  /** Numbers and words inside a relative date ("3" and "day" of "3 days ago"): not facts to keep, but said. */
  impliedKeys: string[];
  /**
   * Keys of capitalised words that open a sentence, are not common words and were not read as
   * names ("Alice" in "Alice moved to Berlin"): maybe a name, maybe not. The judge refuses a
   * merge that drops one of a source's and opens a sentence with a new one (a swapped subject).
   */
  openers: string[];
}

/** Words after which "one" is a pronoun ("the one", "each one"), not a count. */
const PRONOUN_ONE_AFTER: ReadonlySet<string> = new Set([
  'the',
  'this',
  'that',
  'which',
  'each',
  'every',
  'no',
  'any',
  'another',
  'some',
  'someone',
  'little',
  'new',
  'old',
  'other',
  'right',
  'wrong',
  'same',
]);

/** Words that start a new clause ("and" and "or" also pair their neighbours). */
const CONJUNCTIONS = new Set(['and', 'but', 'or', 'while', 'whereas', 'because', 'although', 'though', 'so', 'yet']);
const ARTICLES = new Set(['a', 'an', 'the']);
/** Forms of "be" and "get": "is used to" is not the past habit "used to". */
const BE_OR_GET = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'get', 'gets', 'got', 'getting']);
/** The key a supersession phrase ("used to", a closing "before") reads as: "previously". */
export const SUPERSESSION_KEY = stemWord('previously');

/** A word that reads as a name: capitalised inside a sentence, or mixed or upper case ("iOS", "AWS"). */
function looksLikeName(token: RawToken): boolean {
  const text = token.text;
  const first = text[0] ?? '';
  if (first === first.toLowerCase()) return /\p{Lu}/u.test(text.slice(1)) || /[\p{L}][\d]|\d[\p{L}]|\.\p{L}/u.test(text);
  if (text.length > 1 && text === text.toUpperCase() && /\p{L}{2}/u.test(text)) return true;
  if (/\p{Lu}/u.test(text.slice(1))) return true;
  return !token.sentenceStart;
}

/**
 * What a text says, normalised so that two wordings of one fact meet:
 * - case, possessives ("Alice's"), punctuation and hyphens are dropped;
 * - inflection (plural, tense) through the Porter2 stemmer and a table of irregular forms;
 * - numbers: "three"/"3", "1,000"/"1000"/"1k", "3rd"/"third", "12:30"/"12.30"/"12:30 pm";
 * - dates: "2024-03-05"/"March 5, 2024"/"5 Mar 2024", "Mondays"/"Monday", "last week";
 * - abbreviations and units from `ABBREVIATIONS` ("JS"/"JavaScript", "20°C"/"20 degrees Celsius");
 * - negations ("not", "no", "never", "n't", "without", …) become a term "not <what they negate>";
 *   so does a preference contrast ("prefers tea over coffee"), and a negation reaches both words
 *   of a pair ("not interrupted or disturbed");
 * - "used to" and a closing "before" read as "previously" (a supersession);
 * - a general noun after a demonstrative ("those times") points back and carries no fact.
 * Names are words capitalised inside a sentence, or written in mixed or upper case (a word that
 * starts a sentence is a name when the text capitalises it elsewhere too, or when a capitalised
 * word follows it and it is not a common word: "Using MongoDB", "Ask Dana"). Linear in the text;
 * `meter` counts its steps (for tests).
 */
export function analyseText(text: string, meter: WorkMeter = noWork): TextAnalysis {
  const tokens = tokeniseText(text);
  meter.count += tokens.length;
  const capitalisedInside = new Set<string>();
  for (const token of tokens) {
    if (token.kind === 'word' && !token.sentenceStart && token.text[0] !== token.text[0]?.toLowerCase())
      capitalisedInside.add(token.text.toLowerCase());
  }
  const terms: Term[] = [];
  const openers = new Set<string>();
  let tokenCount = 0;
  let functionWordCount = 0;
  let sentence = 0;
  let pendingNegation: string | undefined;
  const impliedKeys = new Set<string>();
  let clause = 0;
  const pairs: [string, string][] = [];
  /** The last term emitted, while only a conjunction (and articles) have been read since it. */
  let pairLeft: Term | undefined;
  let afterConjunction = false;
  /** The pair just recorded, until the next term says whether it was a list or a clause. */
  let pendingPair: { index: number; clause: number } | undefined;
  /** A preference verb read in this clause ("prefers"), and how many terms followed it. */
  let preference: { clause: number; verb: string; after: number } | undefined;
  const boundary = () => {
    clause += 1;
    pairLeft = undefined;
    afterConjunction = false;
  };

  const emit = (term: Omit<Term, 'sentence' | 'clause'>) => {
    const placed = { ...term, sentence, clause };
    if (pendingNegation !== undefined && term.kind !== 'negation') {
      terms.push({ kind: 'negation', key: `not ${term.key}`, text: `${pendingNegation} ${term.text}`, sentence, clause });
      pendingNegation = undefined;
    }
    // A content word right after the second of a pair ("… and expresses happiness") makes it a
    // clause joined by "and", not a list ("peanuts and shellfish"): that pair is dropped.
    if (pendingPair !== undefined && pendingPair.clause === clause && (term.kind === 'word' || term.kind === 'name'))
      pairs.splice(pendingPair.index, 1);
    pendingPair = undefined;
    if (
      afterConjunction &&
      pairLeft &&
      (term.kind === 'word' || term.kind === 'name') &&
      (pairLeft.kind === 'word' || pairLeft.kind === 'name')
    ) {
      pairs.push([pairLeft.key, placed.key]);
      pendingPair = { index: pairs.length - 1, clause };
    }
    afterConjunction = false;
    pairLeft = placed;
    terms.push(placed);
    if (preference && preference.clause === clause) preference.after += 1;
    if (term.kind === 'word' && PREFERENCE_VERBS.has(term.key)) preference = { clause, verb: term.key, after: 0 };
  };

  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (token.kind === 'break') {
      if (pendingNegation !== undefined) terms.push({ kind: 'negation', key: 'not', text: pendingNegation, sentence, clause });
      pendingNegation = undefined;
      sentence += 1;
      boundary();
      i += 1;
      continue;
    }
    if (token.kind === 'comma') {
      boundary();
      i += 1;
      continue;
    }
    const date = matchDate(tokens, i);
    if (date) {
      const read = tokens.slice(i, i + date.length);
      emit({
        kind: 'date',
        key: date.key,
        text: read.map((t) => t.text).join(' '),
        ...(date.relative ? { relative: true } : {}),
        ...(date.anchored ? { anchored: date.anchored } : {}),
      });
      if (date.relative) {
        read.forEach((part, k) => {
          const count = matchNumber(read, k);
          if (count) impliedKeys.add(count.key);
          else if (part.kind === 'word') impliedKeys.add(stemWord(part.text));
        });
      }
      tokenCount += date.length;
      i += date.length;
      continue;
    }
    const modal = matchModality(tokens, i);
    if (modal) {
      // The terms it reaches are filled in with the negations' scopes, below.
      terms.push({ kind: 'modality', key: 'modal', text: modal.text, sentence, clause });
      functionWordCount += modal.length;
      tokenCount += modal.length;
      i += modal.length;
      continue;
    }
    const negationPhrase = NEGATION_PHRASES.find((words) =>
      words.every((word, k) => tokens[i + k]?.kind === 'word' && tokens[i + k]!.text.toLowerCase() === word),
    );
    if (negationPhrase) {
      pendingNegation ??= negationPhrase.join(' ');
      functionWordCount += negationPhrase.length;
      tokenCount += negationPhrase.length;
      i += negationPhrase.length;
      continue;
    }
    // "the one under way", "this one", "no one": a pronoun, not the number 1.
    if (
      token.kind === 'word' &&
      token.text.toLowerCase() === 'one' &&
      PRONOUN_ONE_AFTER.has(tokens[i - 1]?.kind === 'word' ? tokens[i - 1]!.text.toLowerCase() : '')
    ) {
      tokenCount += 1;
      functionWordCount += 1;
      i += 1;
      continue;
    }
    const number = matchNumber(tokens, i);
    if (number) {
      emit({
        kind: 'number',
        key: number.key,
        text: tokens
          .slice(i, i + number.length)
          .map((t) => t.text)
          .join(' '),
      });
      tokenCount += number.length;
      i += number.length;
      continue;
    }
    const phrase = matchAbbreviation(tokens, i);
    if (phrase) {
      tokenCount += phrase.length;
      const read = tokens.slice(i, i + phrase.length);
      if (phrase.canonical === '') functionWordCount += phrase.length;
      else emit({ kind: read.some(looksLikeName) ? 'name' : 'word', key: phrase.canonical, text: read.map((t) => t.text).join(' ') });
      i += phrase.length;
      continue;
    }
    i += 1;
    if (token.kind === 'symbol' && token.text === '&') afterConjunction = pairLeft !== undefined;
    if (token.kind !== 'word') continue;
    tokenCount += 1;
    const lower = token.text.toLowerCase();
    if (CONJUNCTIONS.has(lower)) {
      functionWordCount += 1;
      const left = pairLeft;
      boundary();
      if (lower === 'and' || lower === 'or') {
        pairLeft = left;
        afterConjunction = left !== undefined;
      }
      continue;
    }
    if (afterConjunction && !ARTICLES.has(lower)) afterConjunction = FUNCTION_WORDS.has(lower) ? false : afterConjunction;
    if (NEGATION_WORDS.has(lower)) {
      functionWordCount += 1;
      pendingNegation ??= token.text;
      continue;
    }
    // "prefers tea over coffee", "picked Stripe over Adyen", "prefers tea to coffee": a contrast, as "rather than".
    if (
      (lower === 'over' || (lower === 'to' && preference?.verb === 'prefer')) &&
      preference?.clause === clause &&
      preference.after > 0 &&
      contentFollows(tokens, i)
    ) {
      functionWordCount += 1;
      pendingNegation ??= token.text;
      continue;
    }
    // "used to work from Lyon" (not "is used to"), "… handled them before.": the fact is superseded.
    const previousWord = tokens[i - 2];
    const usedTo =
      lower === 'used' &&
      tokens[i]?.kind === 'word' &&
      tokens[i]!.text.toLowerCase() === 'to' &&
      !(previousWord?.kind === 'word' && BE_OR_GET.has(previousWord.text.toLowerCase()));
    if (usedTo || (lower === 'before' && (tokens[i] === undefined || tokens[i]!.kind === 'break' || tokens[i]!.kind === 'comma'))) {
      if (usedTo) {
        tokenCount += 1;
        functionWordCount += 1;
        i += 1;
      }
      emit({ kind: 'word', key: SUPERSESSION_KEY, text: usedTo ? `${token.text} to` : token.text });
      continue;
    }
    // "as usual", "as ever": a manner of speaking, no fact of its own.
    if ((lower === 'usual' || lower === 'ever') && previousWord?.kind === 'word' && previousWord.text.toLowerCase() === 'as') {
      functionWordCount += 1;
      continue;
    }
    // "between those times", "that one": they point back, no fact of their own.
    if (ANAPHORIC_NOUNS.has(lower) && previousWord?.kind === 'word' && DEMONSTRATIVES.has(previousWord.text.toLowerCase())) {
      functionWordCount += 1;
      continue;
    }
    if (FUNCTION_WORDS.has(lower) || (pendingNegation !== undefined && NEGATION_SKIP_WORDS.has(lower))) {
      if (!GENERIC_SUBJECTS.has(lower)) functionWordCount += 1;
      continue;
    }
    if (lower.length < 2 && !/\p{Lu}/u.test(token.text)) continue;
    const negatedVerb = NEGATIVE_VERBS.get(lower);
    if (negatedVerb !== undefined) {
      const key = stemWord(negatedVerb);
      terms.push({ kind: 'negation', key: `not ${key}`, text: token.text, sentence, clause });
    }
    const version = /^v(\d+(?:\.\d+)*)$/i.exec(token.text);
    if (version) {
      emit({ kind: 'word', key: stemWord('version'), text: 'version' });
      emit({ kind: 'number', key: canonicalVersion(version[1]!), text: token.text });
      continue;
    }
    // "3 times a week": "times" only counts.
    if ((lower === 'times' || lower === 'time') && terms.at(-1)?.kind === 'number' && terms.at(-1)?.sentence === sentence) {
      functionWordCount += 1;
      continue;
    }
    // "first" and "second" are ordinals as words only ("first" meets "1st"; a "second" after a number is time).
    if ((lower === 'first' || (lower === 'second' && tokens[i - 2]?.kind !== 'number')) && !looksLikeName(token)) {
      emit({ kind: 'word', key: lower === 'first' ? '1st' : '2nd', text: token.text });
      continue;
    }
    const name =
      looksLikeName(token) ||
      (token.sentenceStart && (capitalisedInside.has(lower) || (startsNameSequence(tokens, i - 1) && !isCommonWord(lower))));
    const key = /[\d.@/:]/.test(lower) ? lower : stemWord(lower);
    if (!name && token.sentenceStart && /^\p{Lu}/u.test(token.text) && !isCommonWord(lower) && !GENERIC_SUBJECTS.has(lower))
      openers.add(key);
    emit({ kind: name ? 'name' : 'word', key, text: token.text });
  }
  if (pendingNegation !== undefined) terms.push({ kind: 'negation', key: 'not', text: pendingNegation, sentence, clause });
  const partners = new Map<string, string[]>();
  for (const [left, right] of pairs) partners.set(left, [...(partners.get(left) ?? []), right].slice(0, NEGATION_SCOPE));
  terms.forEach((term, index) => {
    if (term.kind !== 'negation' && term.kind !== 'modality') return;
    const scope: string[] = [];
    // A negation with nothing after it ("…, not.") reaches only itself.
    if (term.kind === 'negation') scope.push(term.key === 'not' ? 'not' : term.key.slice(4));
    const end = Math.min(terms.length, index + 1 + 2 * NEGATION_SCOPE);
    for (let k = index + 1; k < end && scope.length < NEGATION_SCOPE && terms[k]!.sentence === term.sentence; k += 1) {
      meter.count += 1;
      if (terms[k]!.kind !== 'negation' && terms[k]!.kind !== 'modality' && !scope.includes(terms[k]!.key)) scope.push(terms[k]!.key);
    }
    // A negation reaches both words of a pair it reaches one of ("hates being interrupted or disturbed").
    for (const key of scope.slice(1)) {
      for (const partner of (partners.get(key) ?? []).slice(0, NEGATION_SCOPE)) {
        meter.count += 1;
        if (!scope.includes(partner)) scope.push(partner);
      }
    }
    term.scope = scope;
  });

  const distinct = (kinds: ReadonlySet<string>) => [...new Set(terms.filter((term) => kinds.has(term.kind)).map((term) => term.key))];
  return {
    terms,
    tokenCount,
    functionWordCount,
    words: distinct(new Set(['word', 'name'])),
    names: distinct(new Set(['name'])),
    numbers: distinct(new Set(['number'])),
    dates: distinct(new Set(['date'])),
    negations: distinct(new Set(['negation'])),
    modalities: terms.filter((term) => term.kind === 'modality').map((term) => term.text),
    pairs,
    impliedKeys: [...impliedKeys],
    openers: [...openers],
  };
}

/** "3.10" stays "3.10" (a version is not a decimal); "3" is "3". */
function canonicalVersion(digits: string): string {
  return digits.includes('.') ? digits : String(Number(digits));
}

/**
 * A word read after "over" or "to" is what a preference is contrasted with when it is a content
 * word (articles and possessives skipped): "over coffee", "to the bus", not "to be", "over 3".
 */
function contentFollows(tokens: readonly RawToken[], index: number): boolean {
  let k = index;
  while (tokens[k]?.kind === 'word' && ARTICLES.has(tokens[k]!.text.toLowerCase())) k += 1;
  const next = tokens[k];
  return next?.kind === 'word' && !FUNCTION_WORDS.has(next.text.toLowerCase()) && !NEGATION_WORDS.has(next.text.toLowerCase());
}

/**
 * A common word that starts a sentence: one of `SENTENCE_START_WORDS`, or a verb form the stemmer
 * reduces ("Using" → "use", "Decided" → "decid"; "Fred" and "Ming" stay whole).
 */
function isCommonWord(lower: string): boolean {
  if (SENTENCE_START_WORDS.has(lower)) return true;
  return lower.length >= 5 && /(?:ing|ed)$/.test(lower) && stemWord(lower) !== lower;
}

/** A capitalised word followed by another one ("Bob Singh …"): a name even at a sentence's start. */
function startsNameSequence(tokens: readonly RawToken[], index: number): boolean {
  const token = tokens[index];
  const next = tokens[index + 1];
  const capitalised = (t: RawToken | undefined) =>
    t?.kind === 'word' && /^\p{Lu}/u.test(t.text) && !FUNCTION_WORDS.has(t.text.toLowerCase());
  return capitalised(token) && capitalised(next);
}

function matchAbbreviation(tokens: readonly RawToken[], index: number): { canonical: string; length: number } | undefined {
  const first = tokens[index];
  if (!first || (first.kind !== 'word' && first.kind !== 'symbol') || !mayStartAbbreviation(first.text)) return undefined;
  for (let length = LONGEST_ABBREVIATION; length >= 1; length -= 1) {
    const read = tokens.slice(index, index + length);
    if (read.length < length || read.some((token) => token.kind !== 'word' && token.kind !== 'symbol')) continue;
    const canonical = lookupAbbreviation(read.map((token) => token.text));
    if (canonical !== undefined) return { canonical, length };
  }
  return undefined;
}

/** The normalised keys of a text's fact-bearing terms, in reading order (see `analyseText`). */
export function normaliseTerms(text: string): string[] {
  return analyseText(text).terms.map((term) => term.key);
}

/**
 * Phrases saying that what follows is only planned, wished, hoped, considered or possible, not a
 * fact (yet): "plans to play console games" is not "plays console games". Lower case, word by word.
 */
const MODAL_PHRASES: ReadonlyArray<readonly string[]> = [
  ...['plan', 'plans', 'planned', 'planning'].flatMap((verb) => [
    [verb, 'to'],
    [verb, 'on'],
  ]),
  ...[
    'intend',
    'intends',
    'intended',
    'intending',
    'hope',
    'hopes',
    'hoped',
    'hoping',
    'want',
    'wants',
    'wanted',
    'wanting',
    'wish',
    'wishes',
    'wished',
    'wishing',
    'aim',
    'aims',
    'aiming',
    'expect',
    'expects',
    'expecting',
  ].map((verb) => [verb, 'to']),
  ['would', 'like', 'to'],
  ['would', 'love', 'to'],
  ['looking', 'forward', 'to'],
  ['thinking', 'about'],
  ['thinking', 'of'],
  ['considering'],
  ['dreams', 'of'],
  ['dreaming', 'of'],
  ['might'],
  ['maybe'],
  ['perhaps'],
  ['possibly'],
  ['going', 'to'],
];
/** After "going to", these start a place ("going to the gym"), not a plan ("going to play"). */
const GOING_TO_PLACE = new Set([
  'the',
  'a',
  'an',
  'my',
  'his',
  'her',
  'their',
  'our',
  'your',
  'its',
  'this',
  'that',
  'some',
  'work',
  'school',
  'bed',
  'church',
  'college',
  'class',
]);

/** The forms of "consider": "considering" weighs a plan unless it holds an opinion (`holdsAsOpinion`), "considers" and "consider" when a gerund follows ("considers moving"). */
const CONSIDER = new Set(['considering', 'considers', 'consider']);
/** Words ending in -ing that are not gerunds. */
const NOT_GERUNDS = new Set([
  'thing',
  'things',
  'nothing',
  'something',
  'anything',
  'everything',
  'morning',
  'evening',
  'during',
  'king',
  'ring',
  'spring',
  'string',
  'wing',
  'sibling',
  'siblings',
]);

/** Whether a lower-case word reads as a gerund ("moving", "adopting"). */
function isGerund(word: string): boolean {
  return word.length > 4 && word.endsWith('ing') && !NOT_GERUNDS.has(word);
}
/** Objects after which "consider" takes a complement ("considering it an escape"). */
const OBJECT_PRONOUNS = new Set([
  'it',
  'him',
  'her',
  'them',
  'this',
  'that',
  'me',
  'us',
  'you',
  'himself',
  'herself',
  'themselves',
  'myself',
]);
/** After "considering it", these go on with the plan ("considering it for next year"), not with a complement. */
const PLAN_GOES_ON = new Set([
  'for',
  'in',
  'on',
  'at',
  'after',
  'before',
  'next',
  'again',
  'seriously',
  'now',
  'soon',
  'still',
  'too',
  'and',
  'but',
  'or',
]);

/** Words after which "as" compares ("as soon as"), rather than names what something is held as. */
const AS_COMPARES = new Set(['soon', 'well', 'long', 'much', 'many', 'far', 'often', 'quickly']);

/**
 * Whether "consider" with the (up to five) words after it holds an opinion — "considering it an
 * escape", "considers him a friend", "considers stretching and breathing as tools" — rather than
 * weighs a plan: "considering moving", "considering it" at the end of a clause, "considering a
 * new job", "considering moving as soon as she can". `undefined` stands for what is not a word.
 */
function holdsAsOpinion(words: ReadonlyArray<string | undefined>): boolean {
  const [object, after] = words;
  if (object === undefined || after === undefined) return false;
  if (OBJECT_PRONOUNS.has(object) && !PLAN_GOES_ON.has(after)) return true;
  for (let k = 1; k < words.length && words[k] !== undefined; k++) {
    if (words[k] === 'as') return !AS_COMPARES.has(words[k + 1] ?? '');
  }
  return false;
}

/** A modality phrase at `index` (see `MODAL_PHRASES`), with how it was written and how many tokens it took. */
function matchModality(tokens: readonly RawToken[], index: number): { text: string; length: number } | undefined {
  const first = tokens[index];
  if (first?.kind !== 'word') return undefined;
  const lower = (at: number) => (tokens[at]?.kind === 'word' ? tokens[at]!.text.toLowerCase() : undefined);
  const head = lower(index);
  if (head !== undefined && CONSIDER.has(head)) {
    const next = lower(index + 1);
    if (holdsAsOpinion([1, 2, 3, 4, 5].map((k) => lower(index + k)))) return undefined;
    // "considers moving": weighing a plan. "Considers" with anything else is left to the words.
    if (head !== 'considering') return next !== undefined && isGerund(next) ? { text: first.text, length: 1 } : undefined;
  }
  for (const phrase of MODAL_PHRASES) {
    if (phrase[0] !== head || !phrase.every((word, k) => lower(index + k) === word)) continue;
    const next = tokens[index + phrase.length];
    if (phrase[0] === 'going' && (next?.kind !== 'word' || GOING_TO_PLACE.has(next.text.toLowerCase()) || /^\p{Lu}/u.test(next.text)))
      return undefined;
    // "may" is a month when capitalised; a lower-case "may" before a word is a possibility.
    return {
      text: tokens
        .slice(index, index + phrase.length)
        .map((token) => token.text)
        .join(' '),
      length: phrase.length,
    };
  }
  if (head === 'may' && first.text === 'may' && tokens[index + 1]?.kind === 'word') return { text: 'may', length: 1 };
  return undefined;
}
