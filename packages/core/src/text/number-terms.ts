import type { RawToken } from './tokenise-text';
import { lookupTable } from '../lookup/lookup-table';

const UNITS: ReadonlyMap<string, number> = lookupTable({
  zero: 0,
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
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  dozen: 12,
});
/** Counts said in one word ("twice a day" is "2 times a day"). */
const TIMES: ReadonlyMap<string, number> = lookupTable({ twice: 2, thrice: 3 });
const TENS: ReadonlyMap<string, number> = lookupTable({
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
});
const SCALES: ReadonlyMap<string, number> = lookupTable({ hundred: 100, thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 });
const SUFFIX_SCALES: ReadonlyMap<string, number> = lookupTable({ k: 1_000, K: 1_000, M: 1_000_000, bn: 1_000_000_000 });

/** Ordinal words, read as the ordinal in digits ("third" is "3rd"; "first" and "second" are read as words). */
export const ORDINAL_WORDS: ReadonlyMap<string, string> = lookupTable({
  third: '3rd',
  fourth: '4th',
  fifth: '5th',
  sixth: '6th',
  seventh: '7th',
  eighth: '8th',
  ninth: '9th',
  tenth: '10th',
  eleventh: '11th',
  twelfth: '12th',
  thirteenth: '13th',
  fifteenth: '15th',
  twentieth: '20th',
  thirtieth: '30th',
  hundredth: '100th',
});

/** "1st" for 1, "22nd" for 22, "13th" for 13. */
export function ordinal(value: number): string {
  const lastTwo = value % 100;
  const last = value % 10;
  const suffix = lastTwo >= 11 && lastTwo <= 13 ? 'th' : last === 1 ? 'st' : last === 2 ? 'nd' : last === 3 ? 'rd' : 'th';
  return `${value}${suffix}`;
}

/** A number without float noise: 1.50 is "1.5", 1,000 is "1000". */
export function canonicalNumber(value: number): string {
  return String(Math.round(value * 1e6) / 1e6);
}

export interface NumberMatch {
  /** Canonical text: "1000", "2.5", "3rd", "12:30". */
  key: string;
  /** Tokens read. */
  length: number;
}

const wordAt = (tokens: readonly RawToken[], index: number): string | undefined => {
  const token = tokens[index];
  return token?.kind === 'word' ? token.text.toLowerCase() : undefined;
};

const TIME_CONTEXT = new Set(['at', 'from', 'until', 'till', 'by', 'before', 'after', 'around', 'since']);
const MERIDIEM = new Set(['am', 'pm', 'a.m', 'p.m']);

function clockTime(hours: number, minutes: number, meridiem: string | undefined): string | undefined {
  if (minutes > 59) return undefined;
  let h = hours;
  if (meridiem) {
    if (h < 1 || h > 12) return undefined;
    const pm = meridiem.startsWith('p');
    if (pm && h < 12) h += 12;
    if (!pm && h === 12) h = 0;
  } else if (h > 23) return undefined;
  return `${h}:${String(minutes).padStart(2, '0')}`;
}

/**
 * Reads a number at `index`: digits with thousands separators, decimals, ordinals ("3rd"),
 * multipliers ("5k", "2 million"), number words ("twenty-five", "a dozen"), clock times
 * ("12:30", "12.30" after "at", "3pm", "9 a.m.", "noon"). `undefined` when none starts there.
 */
export function matchNumber(tokens: readonly RawToken[], index: number): NumberMatch | undefined {
  const token = tokens[index];
  if (!token) return undefined;
  const next = wordAt(tokens, index + 1);
  if (token.kind === 'time') {
    const [h, m] = token.text.split(':').map(Number) as [number, number];
    const meridiem = next && MERIDIEM.has(next) ? next : undefined;
    const key = clockTime(h, m, meridiem) ?? token.text;
    return { key, length: meridiem ? 2 : 1 };
  }
  if (token.kind === 'number') {
    const ordinalMatch = /^(\d+)(st|nd|rd|th)$/.exec(token.text);
    if (ordinalMatch) return { key: ordinal(Number(ordinalMatch[1])), length: 1 };
    const multiplier = /^([\d.,]+)(k|K|M|bn)$/.exec(token.text);
    const digits = (multiplier?.[1] ?? token.text).replace(/,/g, '');
    let value = Number(digits);
    if (multiplier) return { key: canonicalNumber(value * SUFFIX_SCALES.get(multiplier[2]!)!), length: 1 };
    const dotTime = /^(\d{1,2})\.(\d{2})$/.exec(token.text);
    const before = wordAt(tokens, index - 1);
    if (next && MERIDIEM.has(next)) {
      const key = dotTime
        ? clockTime(Number(dotTime[1]), Number(dotTime[2]), next)
        : Number.isInteger(value)
          ? clockTime(value, 0, next)
          : undefined;
      if (key) return { key, length: 2 };
    }
    if (dotTime && ((before && TIME_CONTEXT.has(before)) || next === 'h' || next === "o'clock")) {
      const key = clockTime(Number(dotTime[1]), Number(dotTime[2]), undefined);
      if (key) return { key, length: 1 };
    }
    if (next === "o'clock" && Number.isInteger(value)) return { key: `${value}:00`, length: 2 };
    let length = 1;
    const scale = next ? SCALES.get(next) : undefined;
    if (scale) {
      value *= scale;
      length = 2;
    }
    return { key: canonicalNumber(value), length };
  }
  if (token.kind !== 'word') return undefined;
  const word = token.text.toLowerCase();
  if (word === 'noon' || word === 'midday') return { key: '12:00', length: 1 };
  if (word === 'midnight') return { key: '0:00', length: 1 };
  const clockPhrase = matchClockPhrase(tokens, index);
  if (clockPhrase) return clockPhrase;
  const times = TIMES.get(word);
  if (times !== undefined) return { key: String(times), length: 1 };
  const ordinalWord = ORDINAL_WORDS.get(word);
  if (ordinalWord) return { key: ordinalWord, length: 1 };
  return matchNumberWords(tokens, index);
}

function matchNumberWords(tokens: readonly RawToken[], index: number): NumberMatch | undefined {
  let i = index;
  const first = wordAt(tokens, i);
  // "a hundred", "a dozen", "a thousand"
  if (first === 'a' || first === 'an') {
    const after = wordAt(tokens, i + 1);
    const scale = after === undefined ? undefined : after === 'dozen' ? 12 : SCALES.get(after);
    if (scale !== undefined) return { key: canonicalNumber(scale), length: 2 };
    return undefined;
  }
  let total = 0;
  let current = 0;
  let read = false;
  for (;;) {
    const word = wordAt(tokens, i);
    if (word === undefined) break;
    const unit = UNITS.get(word) ?? TENS.get(word);
    const scale = SCALES.get(word);
    if (unit !== undefined) current += unit;
    else if (scale !== undefined && read) {
      current = Math.max(current, 1) * scale;
      if (scale >= 1000) {
        total += current;
        current = 0;
      }
    } else if (word === 'and' && read && UNITS.has(wordAt(tokens, i + 1) ?? '')) {
      // "one hundred and five"
    } else break;
    read = true;
    i += 1;
  }
  if (!read) return undefined;
  return { key: canonicalNumber(total + current), length: i - index };
}

const CLOCK_PHRASES: ReadonlyMap<string, [string, number]> = lookupTable({
  'half past': ['past', 30],
  'quarter past': ['past', 15],
  'quarter to': ['to', 45],
});

/** "half past twelve" (12:30), "quarter to eight" (7:45), "quarter past 9" (9:15). */
function matchClockPhrase(tokens: readonly RawToken[], index: number): NumberMatch | undefined {
  const first = wordAt(tokens, index);
  if (first !== 'a' && first !== 'half' && first !== 'quarter') return undefined;
  let i = index;
  if (wordAt(tokens, i) === 'a') i += 1;
  const phrase = CLOCK_PHRASES.get(`${wordAt(tokens, i) ?? ''} ${wordAt(tokens, i + 1) ?? ''}`);
  if (!phrase) return undefined;
  const hourToken = tokens[i + 2];
  const spelled = hourToken?.kind === 'word' ? matchNumberWords(tokens, i + 2) : undefined;
  const hour =
    hourToken?.kind === 'number' && /^\d{1,2}$/.test(hourToken.text)
      ? Number(hourToken.text)
      : spelled && spelled.length === 1
        ? Number(spelled.key)
        : undefined;
  if (hour === undefined || hour < 1 || hour > 24) return undefined;
  const [direction, minutes] = phrase;
  const h = direction === 'to' ? (hour + 23) % 24 : hour;
  return { key: `${h}:${String(minutes).padStart(2, '0')}`, length: i + 3 - index };
}
