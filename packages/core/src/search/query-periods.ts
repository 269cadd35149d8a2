import { matchDate } from '../text/date-terms';
import { tokeniseText } from '../text/tokenise-text';

/** A stretch of time a text names, in milliseconds since the epoch (UTC): `from` inclusive, `to` exclusive. */
export interface Period {
  from: number;
  to: number;
}

/** A year of four digits (1900–2099) somewhere in a text: no period can be named without one. */
const YEAR = /(?<!\d)(?:19|20)\d\d(?!\d)/;
/** The date keys of `analyseText` that name a day, a month or a year of a given year. */
const DATED_KEY = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/**
 * The days, months and years a text names with their year ("on 16 June, 2023", "in December
 * 2023", "2023-06-16", "in 2022"), read as the fact check reads dates (`matchDate`), each as the
 * period it covers, in the order named, each once.
 * A date without its year ("in June"), a weekday or a relative time ("last week") names no
 * period here: which year or which week it means depends on when it was said. Pure.
 */
export function queryPeriods(text: string): Period[] {
  if (!YEAR.test(text)) return [];
  const periods = new Map<string, Period>();
  const tokens = tokeniseText(text);
  for (let i = 0; i < tokens.length; ) {
    const date = matchDate(tokens, i);
    if (!date) {
      i += 1;
      continue;
    }
    const period = date.relative ? undefined : date.anchored ? anchoredPeriod(date.anchored) : periodOfDateKey(date.key);
    if (period) periods.set(date.key, period);
    i += date.length;
  }
  return [...periods.values()];
}

/** The period a date key of `analyseText` covers ("2023-06" → June 2023), or undefined for one without a year. Pure. */
export function periodOfDateKey(key: string): Period | undefined {
  const match = DATED_KEY.exec(key);
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = match[2] === undefined ? undefined : Number(match[2]) - 1;
  const day = match[3] === undefined ? undefined : Number(match[3]);
  if (month === undefined) return { from: utc(year, 0, 1), to: utc(year + 1, 0, 1) };
  if (day === undefined) return { from: utc(year, month, 1), to: utc(year, month + 1, 1) };
  return { from: utc(year, month, day), to: utc(year, month, day + 1) };
}

const DAY_MS = 86_400_000;
/** How far, in days, the unit of an anchored phrase reaches from its day ("the week before …": up to 9 days). */
const ANCHORED_REACH: ReadonlyArray<[RegExp, number]> = [
  [/\b(yesterday|tomorrow|days?)\b/, 1],
  [/\b(weeks?|weekends?|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/, 13],
  [/\bmonths?\b/, 62],
  [/\byears?\b/, 550],
];

/**
 * The period an anchored relative time covers ("the week before 2023-07-16", "about five years
 * before 2023-05-21"): on the side of its day it points to, as far as its unit and count reach,
 * computed without the calendar functions the fact check loads. Pure.
 */
function anchoredPeriod(anchored: { phrase: string; day: string }): Period | undefined {
  const day = periodOfDateKey(anchored.day);
  if (!day) return undefined;
  const count = Number(/^(?:in )?(\d+)/.exec(anchored.phrase)?.[1] ?? 1);
  const reach = (ANCHORED_REACH.find(([pattern]) => pattern.test(anchored.phrase))?.[1] ?? 31) * Math.max(1, count);
  const ahead =
    anchored.phrase.startsWith('next') || anchored.phrase.startsWith('in ') || anchored.phrase === 'tomorrow' || anchored.phrase === 'soon';
  return ahead ? { from: day.from, to: day.to + reach * DAY_MS } : { from: day.from - reach * DAY_MS, to: day.to };
}

function utc(year: number, month: number, day: number): number {
  return Date.UTC(year, month, day);
}

/**
 * Whether an entry was noted within one of `periods`: its first noting (`createdAt`) or its last
 * (`lastSeenAt`) lies in one of them. Not the days between: a merge's first and last notings are
 * those of different sources, and an entry first noted in January and seen again in December was
 * not noted in June. Pure.
 */
export function notedWithin(entry: { createdAt: string; lastSeenAt: string }, periods: readonly Period[]): boolean {
  if (periods.length === 0) return false;
  const first = Date.parse(entry.createdAt);
  const last = Date.parse(entry.lastSeenAt);
  const inside = (time: number) => periods.some((period) => time >= period.from && time < period.to);
  return inside(first) || inside(last);
}

/**
 * Whether a text names a day, month or year within one of `periods` ("on 3 June 2024" is within
 * June 2024 and within 2024). Reads the text only when it holds the digits of a period's year. Pure.
 */
export function namesDateWithin(text: string, periods: readonly Period[]): boolean {
  if (periods.length === 0 || !periods.some((period) => text.includes(String(new Date(period.from).getUTCFullYear())))) return false;
  return queryPeriods(text).some((named) => periods.some((period) => named.from >= period.from && named.to <= period.to));
}
