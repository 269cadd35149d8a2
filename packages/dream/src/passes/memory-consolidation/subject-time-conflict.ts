import { SUBJECT_END_KEY, SUBJECT_POINT_KEY, SUBJECT_START_KEY } from '@reverie/core';
import { parsePartialDate } from '@reverie/core/internal';

interface Span {
  start: number;
  end: number;
  label: string;
}

/** The time an entry's subject covers, from its subject-time metadata; undefined when it has none. */
function subjectSpan(metadata: Readonly<Record<string, string>>): Span | undefined {
  const point = metadata[SUBJECT_POINT_KEY] && parsePartialDate(metadata[SUBJECT_POINT_KEY]);
  if (point) return { start: point.start, end: point.end, label: metadata[SUBJECT_POINT_KEY]! };
  const start = metadata[SUBJECT_START_KEY] ? parsePartialDate(metadata[SUBJECT_START_KEY]) : undefined;
  const end = metadata[SUBJECT_END_KEY] ? parsePartialDate(metadata[SUBJECT_END_KEY]) : undefined;
  if (!start && !end) return undefined;
  return {
    start: start?.start ?? Number.NEGATIVE_INFINITY,
    end: end?.end ?? Number.POSITIVE_INFINITY,
    label: `${metadata[SUBJECT_START_KEY] ?? ''}..${metadata[SUBJECT_END_KEY] ?? ''}`,
  };
}

/**
 * SPEC D3: look-alike entries that describe different real-world moments must not merge. Returns
 * the two subject times that do not overlap when the sources cannot be one moment, else undefined.
 * Entries without subject time never conflict.
 */
export function conflictingSubjectTimes(
  sources: ReadonlyArray<{ metadata: Readonly<Record<string, string>> }>,
): [string, string] | undefined {
  const spans = sources.map((source) => subjectSpan(source.metadata)).filter((span): span is Span => span !== undefined);
  for (let i = 0; i < spans.length; i++) {
    for (let j = i + 1; j < spans.length; j++) {
      const a = spans[i]!;
      const b = spans[j]!;
      if (a.end < b.start || b.end < a.start) return [a.label, b.label];
    }
  }
  return undefined;
}
