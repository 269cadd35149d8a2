// Just over 400 lines: the date patterns the text analysis and the fact check share (months, days,
// years, relative and anchored times), kept as one table so both read a date alike.
import type { RawToken } from './tokenise-text';
import { lookupTable } from '../lookup/lookup-table';
import { SEASONS } from './relative-dates';

const MONTHS: readonly (readonly string[])[] = [
  ['january', 'jan'],
  ['february', 'feb'],
  ['march', 'mar'],
  ['april', 'apr'],
  ['may'],
  ['june', 'jun'],
  ['july', 'jul'],
  ['august', 'aug'],
  ['september', 'sep', 'sept'],
  ['october', 'oct'],
  ['november', 'nov'],
  ['december', 'dec'],
];
const WEEKDAYS: readonly (readonly string[])[] = [
  ['monday', 'mon'],
  ['tuesday', 'tue', 'tues'],
  ['wednesday', 'wed'],
  ['thursday', 'thu', 'thur', 'thurs'],
  ['friday', 'fri'],
  ['saturday', 'sat'],
  ['sunday', 'sun'],
];
/** Month names that are also common words: read as a month only when capitalised. */
const AMBIGUOUS_MONTHS = new Set(['may', 'march']);

const monthByName = new Map<string, number>();
MONTHS.forEach((names, index) => names.forEach((name) => monthByName.set(name, index + 1)));
const weekdayByName = new Map<string, string>();
for (const names of WEEKDAYS) {
  for (const name of names) {
    weekdayByName.set(name, names[0]!);
    weekdayByName.set(`${names[0]!}s`, names[0]!);
  }
}

/** The full names of the months and weekdays, and weekdays' plurals ("mondays"), lower case. */
const CALENDAR_NAMES: ReadonlySet<string> = new Set([
  ...MONTHS.map((names) => names[0]!),
  ...WEEKDAYS.flatMap((names) => [names[0]!, `${names[0]!}s`]),
]);

/** True for the full name of a month or a weekday, or a weekday's plural ("Mondays"), in any case. Pure. */
export function isCalendarName(word: string): boolean {
  return CALENDAR_NAMES.has(word.toLowerCase());
}

/** Relative time words; the phrase itself is the date's key ("last week"). */
const RELATIVE_WORDS = new Set(['yesterday', 'today', 'tomorrow', 'tonight']);
const RELATIVE_LEADS = new Set(['last', 'next', 'this', 'past', 'coming', 'previous', 'following']);
const RELATIVE_UNITS = new Set([
  'week',
  'month',
  'year',
  'weekend',
  'night',
  'morning',
  'evening',
  'afternoon',
  'summer',
  'winter',
  'spring',
  'autumn',
  'fall',
  'quarter',
]);
const AGO_UNITS = new Map([
  ['day', 'day'],
  ['days', 'day'],
  ['week', 'week'],
  ['weeks', 'week'],
  ['month', 'month'],
  ['months', 'month'],
  ['year', 'year'],
  ['years', 'year'],
]);
const SMALL_NUMBERS: ReadonlyMap<string, number> = lookupTable({
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  few: 0,
  couple: 2,
});
/** Words a relative date can start with: anything else is skipped at once. */
const RELATIVE_FIRST_WORDS = new Set([...RELATIVE_WORDS, ...RELATIVE_LEADS, ...SMALL_NUMBERS.keys(), 'in', 'within', 'eleven', 'twelve']);

export interface DateMatch {
  /**
   * Canonical date: "2024-03-05", "2024-03", "2024", "--03-05" (day without year), "--03" (a
   * month), "monday" (a weekday, plural or singular), a relative phrase ("last week"), or a
   * relative phrase anchored to a day ("last week@2023-07-16": "the week before 2023-07-16").
   */
  key: string;
  length: number;
  relative: boolean;
  /** An anchored phrase: the relative phrase it stands for and the day it counts from. */
  anchored?: { phrase: string; day: string };
}

/** Hedges before an anchored span, which the relative phrase implies anyway ("about five years before …"). */
const SPAN_HEDGES = new Set(['about', 'around', 'roughly', 'some', 'approximately', 'nearly', 'almost', 'circa', 'approx']);
/** "shortly before <day>": a time close to the day, which no source's phrase fixes more precisely. */
const SOON_WORDS = new Set(['shortly', 'just', 'soon', 'recently']);
/** What "the <unit> before/after <day>" stands for, by unit and direction. */
const ANCHORED_UNITS: ReadonlyMap<string, { before: string; after: string }> = new Map([
  ['day', { before: 'yesterday', after: 'tomorrow' }],
  ['week', { before: 'last week', after: 'next week' }],
  ['weekend', { before: 'last weekend', after: 'next weekend' }],
  ['month', { before: 'last month', after: 'next month' }],
  ['year', { before: 'last year', after: 'next year' }],
  ...SEASONS.map((season): [string, { before: string; after: string }] => [season, { before: `last ${season}`, after: `next ${season}` }]),
]);

/**
 * A relative time written out against the day it counts from, as a rewrite anchors "last week"
 * in an entry first noted 2023-07-16: "the week before 2023-07-16", "the Friday before
 * 2023-12-11", "about five years before 2023-05-21", "3 days after 2024-01-02", "the week of
 * 2024-01-02". The key is the relative phrase with its day (`last week@2023-07-16`), so the fact
 * check can read it as the phrase it stands for.
 */
function matchAnchored(tokens: readonly RawToken[], index: number): DateMatch | undefined {
  const lower = (at: number) => wordAt(tokens, at);
  let i = index;
  let phrase: { before: string; after: string } | undefined;
  if (lower(i) === 'the') {
    const weekday = weekdayOf(tokens[i + 1]);
    const unit = ANCHORED_UNITS.get(lower(i + 1) ?? '');
    if (weekday) phrase = { before: `last ${weekday}`, after: `next ${weekday}` };
    else if (unit) phrase = unit;
    else return undefined;
    if (lower(i + 1) === 'week' && lower(i + 2) === 'of') {
      const day = anchorDay(tokens, i + 3);
      return day ? anchored('this week', day.key, i + 3 + day.length - index) : undefined;
    }
    i += 2;
  } else if (SOON_WORDS.has(lower(i) ?? '') && (lower(i + 1) === 'before' || lower(i + 1) === 'after')) {
    // "shortly before 2023-02-08" (for "recently"): close to the day, on either side.
    phrase = { before: 'recently', after: 'soon' };
    i += 1;
  } else {
    if (lower(i) !== undefined && SPAN_HEDGES.has(lower(i)!)) i += 1;
    const span = countedSpan(tokens, i);
    if (!span) return undefined;
    phrase = {
      before: `${span.amount} ${span.unit}${span.plural ? 's' : ''} ago`,
      after: `in ${span.amount} ${span.unit}${span.plural ? 's' : ''}`,
    };
    i += span.length;
  }
  const direction = lower(i);
  if (direction !== 'before' && direction !== 'after') return undefined;
  const day = anchorDay(tokens, i + 1);
  if (!day) return undefined;
  return anchored(direction === 'before' ? phrase.before : phrase.after, day.key, i + 1 + day.length - index);
}

function anchored(phrase: string, day: string, length: number): DateMatch {
  return { key: `${phrase}@${day}`, length, relative: false, anchored: { phrase, day } };
}

/** A full day at `index` (ISO or written out), the day an anchored phrase counts from. */
function anchorDay(tokens: readonly RawToken[], index: number): { key: string; length: number } | undefined {
  const token = tokens[index];
  if (token?.kind === 'iso-date' || token?.kind === 'slash-date') {
    const date = matchDate(tokens, index);
    return date && FULL_DAY.test(date.key) ? { key: date.key, length: date.length } : undefined;
  }
  const calendar = matchCalendarDate(tokens, index);
  return calendar && FULL_DAY.test(calendar.key) ? calendar : undefined;
}

const FULL_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** "five years", "3 days", "a week", "a few months", "a couple of weeks" at `index`. */
function countedSpan(
  tokens: readonly RawToken[],
  index: number,
): { amount: string; unit: string; plural: boolean; length: number } | undefined {
  const lower = (at: number) => wordAt(tokens, at);
  let i = index;
  let count: number | undefined;
  const first = lower(i);
  if (tokens[i]?.kind === 'number' && /^\d+$/.test(tokens[i]!.text)) count = Number(tokens[i]!.text);
  else if (first !== undefined && NUMBER_WORDS_FOR_AHEAD.has(first)) {
    count = NUMBER_WORDS_FOR_AHEAD.get(first);
    if ((first === 'a' || first === 'an') && lower(i + 1) === 'few') {
      count = 0;
      i += 1;
    } else if (first === 'a' && lower(i + 1) === 'couple' && lower(i + 2) === 'of') {
      count = 2;
      i += 2;
    }
  }
  const unit = AGO_UNITS.get(lower(i + 1) ?? '');
  if (count === undefined || !unit) return undefined;
  return { amount: count === 0 ? 'a few' : String(count), unit, plural: count !== 1, length: i + 2 - index };
}

const pad = (value: number) => String(value).padStart(2, '0');

function validDay(month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

function isYear(token: RawToken | undefined): number | undefined {
  if (token?.kind !== 'number' || !/^\d{4}$/.test(token.text)) return undefined;
  const year = Number(token.text);
  return year >= 1900 && year <= 2099 ? year : undefined;
}

function dayOf(token: RawToken | undefined): number | undefined {
  if (token?.kind !== 'number') return undefined;
  const match = /^(\d{1,2})(st|nd|rd|th)?$/.exec(token.text);
  return match ? Number(match[1]) : undefined;
}

function monthOf(token: RawToken | undefined): number | undefined {
  if (token?.kind !== 'word') return undefined;
  const lower = token.text.toLowerCase();
  const month = monthByName.get(lower);
  if (month === undefined) return undefined;
  return month;
}

/** A month name that is also a word or a short form needs a capital or a day or year beside it. */
function monthNeedsContext(token: RawToken): boolean {
  const lower = token.text.toLowerCase();
  return (AMBIGUOUS_MONTHS.has(lower) || lower.length === 3 || lower === 'sept') && token.text[0] === lower[0];
}

/** A weekday name ("Monday", "mondays", capitalised "Mon"), as its full singular name. */
export function weekdayOf(token: RawToken | undefined): string | undefined {
  if (token?.kind !== 'word') return undefined;
  const lower = token.text.toLowerCase();
  const weekday = weekdayByName.get(lower);
  if (weekday === undefined) return undefined;
  const short = lower.length <= 4 && !lower.endsWith('day');
  return short && token.text[0] === lower[0] ? undefined : weekday;
}

/** Index of the next token after `index` that is not a comma (dates allow "March 5, 2024"). */
function skipCommas(tokens: readonly RawToken[], index: number): number {
  let i = index;
  while (tokens[i]?.kind === 'comma') i += 1;
  return i;
}

/**
 * Reads a date at `index`: ISO ("2024-03-05", "2024-03"), slashes (month first unless the first
 * part is over 12), "March 5 2024", "March 5th, 2024", "5 Mar 2024", "the 5th of March",
 * "March 2024", a month alone (capitalised), a year alone (1900–2099), a weekday (a weekday right
 * before a date is part of it), and relative phrases ("yesterday", "last week", "3 days ago").
 */
export function matchDate(tokens: readonly RawToken[], index: number): DateMatch | undefined {
  const token = tokens[index];
  if (!token) return undefined;
  const absolute = (key: string, length: number): DateMatch => ({ key, length, relative: false });
  if (token.kind === 'word' || token.kind === 'number') {
    const anchoredDate = matchAnchored(tokens, index);
    if (anchoredDate) return anchoredDate;
  }

  if (token.kind === 'iso-date') {
    const [y, m, d] = token.text.split('-').map(Number) as [number, number, number];
    return validDay(m, d) ? absolute(`${y}-${pad(m)}-${pad(d)}`, 1) : undefined;
  }
  if (token.kind === 'year-month') {
    const [y, m] = token.text.split('-').map(Number) as [number, number];
    return m >= 1 && m <= 12 ? absolute(`${y}-${pad(m)}`, 1) : undefined;
  }
  if (token.kind === 'slash-date') {
    const [a, b, c] = token.text.split('/').map(Number) as [number, number, number];
    const year = c < 100 ? 2000 + c : c;
    const [m, d] = a > 12 ? [b, a] : [a, b];
    return validDay(m, d) ? absolute(`${year}-${pad(m)}-${pad(d)}`, 1) : undefined;
  }

  const weekday = weekdayOf(token);
  if (weekday) {
    const after = matchCalendarDate(tokens, skipCommas(tokens, index + 1));
    if (after) return absolute(after.key, skipCommas(tokens, index + 1) - index + after.length);
    return absolute(weekday, 1);
  }
  const calendar = matchCalendarDate(tokens, index);
  if (calendar) return absolute(calendar.key, calendar.length);
  const year = isYear(token);
  if (year !== undefined) return absolute(String(year), 1);
  return matchRelative(tokens, index);
}

/** The lower-case word at `at`, or `undefined` when there is none. */
function wordAt(tokens: readonly RawToken[], at: number): string | undefined {
  const token = tokens[at];
  return token?.kind === 'word' ? token.text.toLowerCase() : undefined;
}

function matchCalendarDate(tokens: readonly RawToken[], index: number): { key: string; length: number } | undefined {
  let i = index;
  const lower = (at: number) => wordAt(tokens, at);
  if (lower(i) === 'the' && dayOf(tokens[i + 1]) !== undefined) i += 1;
  const leadingDay = dayOf(tokens[i]);
  if (leadingDay !== undefined) {
    // 5 March 2024, 5th of March
    let j = i + 1;
    if (lower(j) === 'of') j += 1;
    const month = monthOf(tokens[j]);
    if (month === undefined || !validDay(month, leadingDay) || (AMBIGUOUS_MONTHS.has(tokens[j]!.text) && lower(j - 1) !== 'of'))
      return undefined;
    j = skipCommas(tokens, j + 1);
    const year = isYear(tokens[j]);
    if (year !== undefined) return { key: `${year}-${pad(month)}-${pad(leadingDay)}`, length: j + 1 - index };
    return { key: `--${pad(month)}-${pad(leadingDay)}`, length: j - index };
  }
  const month = monthOf(tokens[i]);
  if (month === undefined) return undefined;
  let j = skipCommas(tokens, i + 1);
  if (lower(j) === 'the') j += 1;
  const day = dayOf(tokens[j]);
  if (day !== undefined && validDay(month, day) && isYear(tokens[j]) === undefined && !(tokens[i]!.text === 'may' && j === i + 1)) {
    const k = skipCommas(tokens, j + 1);
    const year = isYear(tokens[k]);
    if (year !== undefined) return { key: `${year}-${pad(month)}-${pad(day)}`, length: k + 1 - index };
    return { key: `--${pad(month)}-${pad(day)}`, length: j + 1 - index };
  }
  if (lower(j) === 'of' || lower(j) === 'in') j += 1;
  const year = isYear(tokens[skipCommas(tokens, j)]);
  if (year !== undefined) return { key: `${year}-${pad(month)}`, length: skipCommas(tokens, j) + 1 - index };
  if (monthNeedsContext(tokens[i]!)) return undefined;
  return { key: `--${pad(month)}`, length: i + 1 - index };
}

function matchRelative(tokens: readonly RawToken[], index: number): DateMatch | undefined {
  const lower = (at: number) => wordAt(tokens, at);
  const first = lower(index);
  const token = tokens[index];
  if (token?.kind !== 'number' && (first === undefined || !RELATIVE_FIRST_WORDS.has(first))) return undefined;
  if (first && RELATIVE_WORDS.has(first)) return { key: first, length: 1, relative: true };
  const second = lower(index + 1);
  if (first && RELATIVE_LEADS.has(first) && second) {
    const lead = first === 'past' || first === 'previous' ? 'last' : first === 'coming' || first === 'following' ? 'next' : first;
    if (RELATIVE_UNITS.has(second)) return { key: `${lead} ${second === 'fall' ? 'autumn' : second}`, length: 2, relative: true };
    const weekday = weekdayOf(tokens[index + 1]);
    if (weekday) return { key: `${lead} ${weekday}`, length: 2, relative: true };
  }
  // "3 days ago", "two weeks ago", "a few weeks ago"
  let i = index;
  let count: number | undefined;
  if (tokens[i]?.kind === 'number' && /^\d+$/.test(tokens[i]!.text)) count = Number(tokens[i]!.text);
  else if (first !== undefined && SMALL_NUMBERS.has(first)) {
    count = SMALL_NUMBERS.get(first);
    if ((first === 'a' || first === 'an') && lower(i + 1) === 'few') {
      count = 0;
      i += 1;
    } else if (first === 'a' && lower(i + 1) === 'couple' && lower(i + 2) === 'of') {
      count = 2;
      i += 2;
    }
  }
  if (first === 'in' || first === 'within') {
    const ahead = matchAhead(tokens, index + 1);
    if (ahead) return { key: `in ${ahead.key}`, length: ahead.length + 1, relative: true };
  }
  if (count === undefined) return undefined;
  const unit = AGO_UNITS.get(lower(i + 1) ?? '');
  if (unit && lower(i + 2) === 'ago') {
    const amount = count === 0 ? 'a few' : String(count);
    return { key: `${amount} ${unit}${count === 1 ? '' : 's'} ago`, length: i + 3 - index, relative: true };
  }
  return undefined;
}

const NUMBER_WORDS_FOR_AHEAD: ReadonlyMap<string, number> = new Map([...SMALL_NUMBERS, ['eleven', 11], ['twelve', 12]]);

/** "three months" after "in": a span ahead of the day of writing. */
function matchAhead(tokens: readonly RawToken[], index: number): { key: string; length: number } | undefined {
  const token = tokens[index];
  const unitToken = tokens[index + 1];
  if (!token || unitToken?.kind !== 'word') return undefined;
  const count =
    token.kind === 'number' && /^\d+$/.test(token.text)
      ? Number(token.text)
      : token.kind === 'word'
        ? NUMBER_WORDS_FOR_AHEAD.get(token.text.toLowerCase())
        : undefined;
  const unit = AGO_UNITS.get(unitToken.text.toLowerCase());
  if (count === undefined || count === 0 || !unit) return undefined;
  return { key: `${count} ${unit}${count === 1 ? '' : 's'}`, length: 2 };
}

/**
 * Every date key `key` says at least ("2024-03-05" says "2024-03", "2024", "--03-05" and "--03"):
 * a merge keeps a source's date when one of its dates generalises to it.
 */
export function dateGeneralisations(key: string): string[] {
  const full = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(key);
  if (full) {
    const [, year, month, day] = full;
    const keys = [key, year!];
    if (month) keys.push(`${year}-${month}`, `--${month}`);
    if (month && day) keys.push(`--${month}-${day}`);
    return [...new Set(keys)];
  }
  const partial = /^--(\d{2})-(\d{2})$/.exec(key);
  if (partial) return [key, `--${partial[1]}`];
  return [key];
}
