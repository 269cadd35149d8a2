import { requireCommonJs } from './require-commonjs';

/**
 * The date-fns functions the relative dates use, loaded at the first call that needs one: only
 * the fact check reads relative dates, and a process serving turns may never run it (docs/
 * architecture.md, "What loads lazily"). They are required synchronously because the fact check
 * is; each is one CommonJS module of date-fns (its index loads all ~300 of them).
 */
interface DateFns {
  addDays: typeof import('date-fns/addDays').addDays;
  addMonths: typeof import('date-fns/addMonths').addMonths;
  addWeeks: typeof import('date-fns/addWeeks').addWeeks;
  addYears: typeof import('date-fns/addYears').addYears;
  endOfMonth: typeof import('date-fns/endOfMonth').endOfMonth;
  endOfWeek: typeof import('date-fns/endOfWeek').endOfWeek;
  getDay: typeof import('date-fns/getDay').getDay;
  parseISO: typeof import('date-fns/parseISO').parseISO;
  startOfMonth: typeof import('date-fns/startOfMonth').startOfMonth;
  startOfWeek: typeof import('date-fns/startOfWeek').startOfWeek;
  subMonths: typeof import('date-fns/subMonths').subMonths;
}

let loaded: DateFns | undefined;

function dateFns(): DateFns {
  if (loaded) return loaded;
  loaded = {
    addDays: requireCommonJs('date-fns/addDays').addDays,
    addMonths: requireCommonJs('date-fns/addMonths').addMonths,
    addWeeks: requireCommonJs('date-fns/addWeeks').addWeeks,
    addYears: requireCommonJs('date-fns/addYears').addYears,
    endOfMonth: requireCommonJs('date-fns/endOfMonth').endOfMonth,
    endOfWeek: requireCommonJs('date-fns/endOfWeek').endOfWeek,
    getDay: requireCommonJs('date-fns/getDay').getDay,
    parseISO: requireCommonJs('date-fns/parseISO').parseISO,
    startOfMonth: requireCommonJs('date-fns/startOfMonth').startOfMonth,
    startOfWeek: requireCommonJs('date-fns/startOfWeek').startOfWeek,
    subMonths: requireCommonJs('date-fns/subMonths').subMonths,
  };
  return loaded;
}

/** Days a date said relative to the day it was written may land on, either side of the exact day. */
export const RELATIVE_DATE_TOLERANCE_DAYS = 3;

/** The local calendar day of `date` as `yyyy-MM-dd` (date-fns' `format` would load its locale machinery). */
const day = (date: Date) =>
  `${String(date.getFullYear()).padStart(4, '0')}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
const week = { weekStartsOn: 1 } as const;

/**
 * The days (`from`–`to`, ISO) a relative phrase ("last week", "yesterday", "3 days ago",
 * "in 3 months") means when written on `anchor` (an ISO day), or `undefined` when the phrase
 * has no fixed reading.
 */
export interface DateWindow {
  from: string;
  to: string;
  /** Only days of this weekday ("last Friday"). */
  weekday?: string;
}

const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** The weekday of an ISO day ("2024-05-17" is "friday"), or `undefined` for anything else. */
export function weekdayOfDay(key: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(key)) return undefined;
  const { getDay, parseISO } = dateFns();
  const date = parseISO(key);
  return Number.isNaN(date.getTime()) ? undefined : WEEKDAY_NAMES[getDay(date)];
}

export function relativeDateWindow(phrase: string, anchor: string): DateWindow | undefined {
  const { addDays, addMonths, addWeeks, addYears, endOfMonth, endOfWeek, parseISO, startOfMonth, startOfWeek, subMonths } = dateFns();
  const at = parseISO(anchor);
  if (Number.isNaN(at.getTime())) return undefined;
  const span = (from: Date, to: Date) => ({ from: day(from), to: day(to) });
  const around = (date: Date, slack = RELATIVE_DATE_TOLERANCE_DAYS) => span(addDays(date, -slack), addDays(date, slack));
  switch (phrase) {
    case 'today':
    case 'tonight':
      return span(at, at);
    case 'yesterday':
      return span(addDays(at, -1), addDays(at, -1));
    case 'tomorrow':
      return span(addDays(at, 1), addDays(at, 1));
    case 'last week':
      return span(startOfWeek(addWeeks(at, -1), week), endOfWeek(addWeeks(at, -1), week));
    case 'this week':
      return span(startOfWeek(at, week), endOfWeek(at, week));
    case 'next week':
      return span(startOfWeek(addWeeks(at, 1), week), endOfWeek(addWeeks(at, 1), week));
    case 'last weekend':
      // The weekend before the day of writing, whichever day of the week that was.
      return span(addDays(at, -9), addDays(at, -1));
    case 'this weekend':
      return span(addDays(at, -2), addDays(at, 6));
    case 'next weekend':
      return span(addDays(at, 1), addDays(at, 13));
    case 'last month':
      return span(startOfMonth(subMonths(at, 1)), endOfMonth(subMonths(at, 1)));
    case 'this month':
      return span(startOfMonth(at), endOfMonth(at));
    case 'next month':
      return span(startOfMonth(addMonths(at, 1)), endOfMonth(addMonths(at, 1)));
    case 'last year':
      return span(new Date(at.getFullYear() - 1, 0, 1), new Date(at.getFullYear() - 1, 11, 31));
    case 'next year':
      return span(new Date(at.getFullYear() + 1, 0, 1), new Date(at.getFullYear() + 1, 11, 31));
  }
  const weekday = /^(last|next|this) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/.exec(phrase);
  if (weekday) {
    // "last Friday" said on a Saturday may mean yesterday or the Friday before: the window holds both.
    const [from, to] = weekday[1] === 'last' ? [-13, -1] : weekday[1] === 'next' ? [1, 13] : [-6, 6];
    return { ...span(addDays(at, from), addDays(at, to)), weekday: weekday[2] };
  }
  const season = /^(last|next) ([a-z]+)$/.exec(phrase);
  if (season && SEASON_START.has(season[2]!)) return seasonWindow(season[1] === 'last' ? 'last' : 'next', season[2]!, at);
  const counted = /^(in )?(\d+|a few) (day|week|month|year)s?( ago)?$/.exec(phrase);
  if (!counted || (counted[1] === undefined) === (counted[4] === undefined)) return undefined;
  const sign = counted[1] ? 1 : -1;
  const amount = counted[2] === 'a few' ? 3 : Number(counted[2]);
  const unit = counted[3];
  if (counted[2] === 'a few') {
    const far =
      unit === 'day'
        ? addDays(at, sign * 7)
        : unit === 'week'
          ? addWeeks(at, sign * 5)
          : unit === 'month'
            ? addMonths(at, sign * 6)
            : addYears(at, sign * 5);
    return sign > 0 ? span(at, far) : span(far, at);
  }
  if (unit === 'day') return around(addDays(at, sign * amount), 0);
  if (unit === 'week') return around(addWeeks(at, sign * amount));
  if (unit === 'month') return around(addMonths(at, sign * amount), 7);
  return span(addDays(addYears(at, sign * amount), -183), addDays(addYears(at, sign * amount), 183));
}

/** The month each season starts in (0-based; meteorological seasons of the northern hemisphere, three months each). */
const SEASON_START: ReadonlyMap<string, number> = new Map<string, number>([
  ['spring', 2],
  ['summer', 5],
  ['autumn', 8],
  ['fall', 8],
  ['winter', 11],
]);
/** The seasons "last …" and "next …" can be anchored by (`relativeDateWindow`). */
export const SEASONS: readonly string[] = [...SEASON_START.keys()];

/**
 * "last summer": the latest summer over before `at`; "next summer": the first to begin after it.
 * (Meteorological seasons: summer is June to August, winter December to February.)
 */
function seasonWindow(direction: 'last' | 'next', season: string, at: Date): DateWindow {
  const { addMonths, endOfMonth } = dateFns();
  const startMonth = SEASON_START.get(season)!;
  // The instance of the season that starts in the year of `at`, then step a year at a time.
  let start = new Date(at.getFullYear(), startMonth, 1);
  const endOf = (from: Date) => endOfMonth(addMonths(from, 2));
  if (direction === 'last') {
    while (endOf(start) >= at) start = new Date(start.getFullYear() - 1, startMonth, 1);
  } else {
    while (start <= at) start = new Date(start.getFullYear() + 1, startMonth, 1);
  }
  return { from: day(start), to: day(endOf(start)) };
}

/** Whether date key `key` (ISO day or month) falls in the window. */
export function dateInWindow(key: string, window: DateWindow): boolean {
  if (/^\d{4}-\d{2}-\d{2}$/.test(key))
    return key >= window.from && key <= window.to && (window.weekday === undefined || weekdayOfDay(key) === window.weekday);
  if (window.weekday !== undefined) return false;
  if (/^\d{4}-\d{2}$/.test(key)) return key >= window.from.slice(0, 7) && key <= window.to.slice(0, 7);
  return false;
}
