import { ownValue } from '@reverie/core/internal';
import type { ImportProblem } from './import-problems';

/** A whole-file JSON document, or the problem with the line the parser stopped at. Pure. */
export function parseJsonDocument(text: string): { value: unknown } | { problem: ImportProblem } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = (error as Error).message;
    const lineColumn = /line (\d+) column/.exec(message);
    const position = /position (\d+)/.exec(message);
    const line = lineColumn
      ? Number(lineColumn[1])
      : position
        ? text.slice(0, Number(position[1])).split('\n').length
        : text.split('\n').length;
    return { problem: { line, message: `not JSON (${message})` } };
  }
}

/** A plain JSON object's own field (never an inherited one), or undefined. */
export function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? ownValue(value as Readonly<Record<string, unknown>>, name)
    : undefined;
}
