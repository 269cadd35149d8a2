import { stripRetentionTags } from '../memory-consolidation/normalise-content';
import type { WorkflowGroup } from './group-workflow-runs';

/** Longest description kept in an annotation heading. */
const MAX_HEADING_DESCRIPTION = 160;
/** Longest error quoted in a host-written annotation. */
const MAX_QUOTED_ERROR = 300;

/** Text on one line: control characters and line breaks become spaces, runs of spaces one. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029\s]+/g, ' ').trim();
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The heading of one annotation: `## Known failure (<day>): <description>`. Pure. */
export function annotationHeading(day: string, description: string): string {
  return `## Known failure (${day}): ${clip(oneLine(stripRetentionTags(description)), MAX_HEADING_DESCRIPTION)}`;
}

/** The host's count line: `3 of 5 run(s) failed between <day> and <day> (last <n> days).` Pure. */
export function failureCounts(group: WorkflowGroup, windowDays: number): string {
  const first = group.failureTimes[0]?.slice(0, 10) ?? '';
  const last = group.failureTimes.at(-1)?.slice(0, 10) ?? '';
  const span = first === last ? `on ${first}` : `between ${first} and ${last}`;
  return `${group.failures} of ${group.runs} run(s) failed ${span} (last ${windowDays} days).`;
}

/**
 * What the host writes when no model note is available (SPEC D12): the counts, the steps that
 * failed and the most common error, from the records alone. Pure.
 */
export function factualNote(group: WorkflowGroup, windowDays: number): string {
  const lines = [failureCounts(group, windowDays)];
  if (group.failedSteps.length > 0) {
    lines.push(
      `Failed step(s): ${group.failedSteps.map((step) => `${JSON.stringify(clip(oneLine(step.text), 120))} (${step.count}×)`).join(', ')}.`,
    );
  }
  const error = group.errors[0];
  if (error) lines.push(`Most common error (${error.count}×): ${JSON.stringify(clip(oneLine(error.text), MAX_QUOTED_ERROR))}`);
  return lines.join('\n');
}

/**
 * A model's note made safe to append to a skill: retention hints stripped (SPEC D17), heading
 * marks removed so the note cannot add sections of its own, blank runs collapsed, at most
 * `maxChars` (cut and marked). Empty when nothing is left. Pure.
 */
export function cleanNote(note: string, maxChars: number): { text: string; cut: boolean } {
  const text = stripRetentionTags(note)
    .split('\n')
    .map((line) => line.replace(/^\s{0,3}#{1,6}(?=\s|$)\s*/, '').trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text.length > maxChars ? { text: `${text.slice(0, maxChars - 1).trimEnd()}…`, cut: true } : { text, cut: false };
}

/** One annotation block: the heading, then the body. Pure. */
export function renderAnnotation(day: string, description: string, body: string): string {
  return `${annotationHeading(day, description)}\n\n${body.trim()}\n`;
}

/** The skill's content with the annotation blocks appended after a blank line. Pure. */
export function appendAnnotations(content: string, blocks: readonly string[]): string {
  const base = content.trimEnd();
  const added = blocks.map((block) => block.trim()).join('\n\n');
  return base === '' ? `${added}\n` : `${base}\n\n${added}\n`;
}
