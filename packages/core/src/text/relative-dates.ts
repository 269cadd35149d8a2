import { addDays, addMonths, addWeeks, addYears, endOfMonth, endOfWeek, format, parseISO, startOfMonth, startOfWeek, subMonths } from 'date-fns';

/** Days a date said relative to the day it was written may land on, either side of the exact day. */
export const RELATIVE_DATE_TOLERANCE_DAYS = 3;

const day = (date: Date) => format(date, 'yyyy-MM-dd');
const week = { weekStartsOn: 1 } as const;

/**
 * The days (`from`–`to`, ISO) a relative phrase ("last week", "yesterday", "3 days ago",
 * "in 3 months") means when written on `anchor` (an ISO day), or `undefined` when the phrase
 * has no fixed reading.
 */
export function relativeDateWindow(phrase: string, anchor: string): { from: string; to: string } | undefined {
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
  const counted = /^(in )?(\d+|a few) (day|week|month|year)s?( ago)?$/.exec(phrase);
  if (!counted || (counted[1] === undefined) === (counted[4] === undefined)) return undefined;
  const sign = counted[1] ? 1 : -1;
  const amount = counted[2] === 'a few' ? 3 : Number(counted[2]);
  const unit = counted[3];
  if (counted[2] === 'a few') {
    const far = unit === 'day' ? addDays(at, sign * 7) : unit === 'week' ? addWeeks(at, sign * 5) : unit === 'month' ? addMonths(at, sign * 6) : addYears(at, sign * 5);
    return sign > 0 ? span(at, far) : span(far, at);
  }
  if (unit === 'day') return around(addDays(at, sign * amount), 0);
  if (unit === 'week') return around(addWeeks(at, sign * amount));
  if (unit === 'month') return around(addMonths(at, sign * amount), 7);
  return span(addDays(addYears(at, sign * amount), -183), addDays(addYears(at, sign * amount), 183));
}

/** Whether date key `key` (ISO day or month) falls in the window. */
export function dateInWindow(key: string, window: { from: string; to: string }): boolean {
  if (/^\d{4}-\d{2}-\d{2}$/.test(key)) return key >= window.from && key <= window.to;
  if (/^\d{4}-\d{2}$/.test(key)) return key >= window.from.slice(0, 7) && key <= window.to.slice(0, 7);
  return false;
}
