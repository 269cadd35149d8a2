import { timestampSchema } from '../schemas/common';

/**
 * Subject time: when the thing a memory talks about happened (a trip in June, a deadline on the
 * 14th), as opposed to when the memory was recorded. It lives in an entry's metadata under the
 * keys below, as ISO dates that may be partial.
 */
export const SUBJECT_START_KEY = 'subject.start';
export const SUBJECT_END_KEY = 'subject.end';
export const SUBJECT_POINT_KEY = 'subject.point';

export const SUBJECT_TIME_KEYS = [SUBJECT_START_KEY, SUBJECT_END_KEY, SUBJECT_POINT_KEY] as const;
export type SubjectTimeKey = (typeof SUBJECT_TIME_KEYS)[number];

/** 1 = year (`2026`), 2 = month (`2026-06`), 3 = day (`2026-06-14`), 4 = full datetime. */
export type DatePrecision = 1 | 2 | 3 | 4;

/** The span of time a (possibly partial) ISO date covers, in epoch milliseconds, both ends inclusive. */
export interface PartialDateSpan {
  start: number;
  end: number;
  precision: DatePrecision;
}

const YEAR_PATTERN = /^(\d{4})$/;
const MONTH_PATTERN = /^(\d{4})-(\d{2})$/;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Epoch ms of midnight UTC on the given day. `Date.UTC` maps years 0–99 to 1900–1999, so the
 * year is set separately to keep `0050` meaning the year 50.
 */
function utcMidnight(year: number, monthIndex: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date.getTime();
}

/** Number of days in a month (`month` is 1–12), leap years included. */
function daysInMonth(year: number, month: number): number {
  return new Date(utcMidnight(year, month, 0)).getUTCDate();
}

/** The span of a whole UTC year. */
function yearSpan(year: number): PartialDateSpan {
  return { start: utcMidnight(year, 0, 1), end: utcMidnight(year + 1, 0, 1) - 1, precision: 1 };
}

/** The span of a whole UTC month, or undefined when `month` is not 1–12. */
function monthSpan(year: number, month: number): PartialDateSpan | undefined {
  if (month < 1 || month > 12) return undefined;
  return { start: utcMidnight(year, month - 1, 1), end: utcMidnight(year, month, 1) - 1, precision: 2 };
}

/** The span of a whole UTC day, or undefined when the day does not exist (`2026-02-30`). */
function daySpan(year: number, month: number, day: number): PartialDateSpan | undefined {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const start = utcMidnight(year, month - 1, day);
  return { start, end: utcMidnight(year, month - 1, day + 1) - 1, precision: 3 };
}

/** A full datetime with a zone (`Z` or an offset) is one instant: start and end coincide. */
function datetimeSpan(value: string): PartialDateSpan | undefined {
  if (!timestampSchema.safeParse(value).success) return undefined;
  const instant = Date.parse(value);
  return Number.isNaN(instant) ? undefined : { start: instant, end: instant, precision: 4 };
}

/**
 * Parses a subject-time value: `2026`, `2026-06`, `2026-06-14`, or a full ISO datetime with a
 * zone (`2026-06-14T09:30:00Z`, `2026-06-14T09:30:00+02:00`). Date-only values are read in UTC
 * and cover every millisecond of their year, month or day. Returns undefined for anything
 * malformed (`2026-13`, `2026-02-30`, `hello`); never throws.
 */
export function parsePartialDate(value: string): PartialDateSpan | undefined {
  if (typeof value !== 'string') return undefined;
  const year = YEAR_PATTERN.exec(value);
  if (year) return yearSpan(Number(year[1]));
  const month = MONTH_PATTERN.exec(value);
  if (month) return monthSpan(Number(month[1]), Number(month[2]));
  const day = DAY_PATTERN.exec(value);
  if (day) return daySpan(Number(day[1]), Number(day[2]), Number(day[3]));
  return datetimeSpan(value);
}

interface Candidate {
  value: string;
  span: PartialDateSpan;
}

/** Negative when `a` should win over `b`; 0 only for identical strings. */
type CandidateOrder = (a: Candidate, b: Candidate) => number;

/** Last-resort tie-break: plain code-unit order, independent of locale. */
function byString(a: Candidate, b: Candidate): number {
  if (a.value === b.value) return 0;
  return a.value < b.value ? -1 : 1;
}

/** `subject.start`: the earliest covered start; on a tie the coarser value (wider range) wins. */
const startOrder: CandidateOrder = (a, b) => a.span.start - b.span.start || a.span.precision - b.span.precision || byString(a, b);

/** `subject.end`: the latest covered end; on a tie the coarser value (wider range) wins. */
const endOrder: CandidateOrder = (a, b) => b.span.end - a.span.end || a.span.precision - b.span.precision || byString(a, b);

/** `subject.point`: the most specific value, then the earliest start, then string order. */
const pointOrder: CandidateOrder = (a, b) => b.span.precision - a.span.precision || a.span.start - b.span.start || byString(a, b);

const ORDERS: Record<SubjectTimeKey, CandidateOrder> = {
  [SUBJECT_START_KEY]: startOrder,
  [SUBJECT_END_KEY]: endOrder,
  [SUBJECT_POINT_KEY]: pointOrder,
};

/** The well-formed value stored under `key` in `metadata`, with its span. */
function candidateOf(metadata: Readonly<Record<string, string>>, key: SubjectTimeKey): Candidate | undefined {
  if (!Object.hasOwn(metadata, key)) return undefined;
  const value = metadata[key];
  if (typeof value !== 'string') return undefined;
  const span = parsePartialDate(value);
  return span ? { value, span } : undefined;
}

/** The winner for one key across all sources under that key's total order, if any source has one. */
function winnerFor(sources: ReadonlyArray<Readonly<Record<string, string>>>, key: SubjectTimeKey): string | undefined {
  const order = ORDERS[key];
  let best: Candidate | undefined;
  for (const metadata of sources) {
    const candidate = candidateOf(metadata, key);
    if (candidate && (best === undefined || order(candidate, best) < 0)) best = candidate;
  }
  return best?.value;
}

/**
 * SPEC D4: the metadata of a merged entry. Only subject-time keys survive; every other key is
 * dropped. `subject.start` takes the value covering the earliest start and `subject.end` the
 * value covering the latest end, so the range only widens; `subject.point` takes the most
 * specific value (then the earliest, then the smallest string). The winner's original string
 * is kept. Malformed values are ignored. Each key is chosen by a total order, so the merge is
 * commutative and associative, and a key no source carries is absent from the result.
 */
export function mergeSubjectTimeMetadata(sources: ReadonlyArray<Readonly<Record<string, string>>>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const key of SUBJECT_TIME_KEYS) {
    const winner = winnerFor(sources, key);
    if (winner !== undefined) merged[key] = winner;
  }
  return merged;
}

/**
 * A short rendering of an entry's subject time for prompts, or undefined when it has none:
 * `2026-06-01..2026-06-14` for a range (`2026-06-01..` or `..2026-06-14` when open), `2026-06-14`
 * for a point, `2026-06-14 within 2026-06-01..2026-06-30` when both are present. Malformed values
 * are ignored.
 */
export function describeSubjectTime(metadata: Readonly<Record<string, string>>): string | undefined {
  const start = candidateOf(metadata, SUBJECT_START_KEY)?.value;
  const end = candidateOf(metadata, SUBJECT_END_KEY)?.value;
  const point = candidateOf(metadata, SUBJECT_POINT_KEY)?.value;
  const range = start === undefined && end === undefined ? undefined : start === end ? start : `${start ?? ''}..${end ?? ''}`;
  if (range === undefined) return point;
  if (point === undefined || point === range) return range;
  return `${point} within ${range}`;
}
