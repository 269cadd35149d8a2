import { describeIssues, isSystemCategory } from '@reverie/core/internal';
import {
  EXPORT_FORMAT_VERSION,
  EXPORT_HEADER_TYPE,
  type ExportRecord,
  exportEndSchema,
  exportHeaderSchema,
  exportRecordSchema,
} from './export-format';
import type { ImportProblem } from './import-problems';

/** What a Reverie export holds once read: its records, or the problems found, each by line. */
export interface ParsedImport {
  records: ExportRecord[];
  problems: ImportProblem[];
}

/** `JSON.parse`, or the parser's message. */
function parseJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * Reads a Reverie export (JSON Lines, docs/export.md): the header with a version this release
 * reads, one record per line, and the `end` line counting them. Every problem is reported with its
 * line: a line that is not JSON, a record that fails validation, an unknown version, a missing end
 * (a file cut short) or a count that does not match. Blank lines are skipped. Pure.
 */
export function parseExport(text: string): ParsedImport {
  const lines = text.split('\n');
  const records: ExportRecord[] = [];
  const problems: ImportProblem[] = [];
  let headerSeen = false;
  let end: { line: number; records: number } | undefined;
  const memoryIds = new Set<string>();
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    if (raw.trim() === '') continue;
    if (end !== undefined) {
      problems.push({ line, message: 'a line after the end line' });
      continue;
    }
    const parsed = parseJson(raw);
    if ('error' in parsed) {
      problems.push({ line, message: `not JSON (${parsed.error})` });
      continue;
    }
    if (!headerSeen) {
      headerSeen = true;
      const header = exportHeaderSchema.safeParse(parsed.value);
      if (!header.success) {
        problems.push({ line, message: `not a Reverie export header (${describeIssues(header.error)})` });
        break;
      }
      if (header.data.version !== EXPORT_FORMAT_VERSION) {
        problems.push({ line, message: `format version ${header.data.version} is not one this release reads (${EXPORT_FORMAT_VERSION})` });
        break;
      }
      continue;
    }
    const endLine = exportEndSchema.safeParse(parsed.value);
    if (endLine.success) {
      end = { line, records: endLine.data.records };
      continue;
    }
    const record = exportRecordSchema.safeParse(parsed.value);
    if (!record.success) problems.push({ line, message: `not a valid record (${describeIssues(record.error)})` });
    else if (record.data.type === 'memory' && isSystemCategory(record.data.entry.category)) {
      problems.push({ line, message: `the category ${JSON.stringify(record.data.entry.category)} is reserved for Reverie` });
    } else if (record.data.type === 'vector' && !memoryIds.has(record.data.id)) {
      problems.push({ line, message: `a vector of ${record.data.id}, which is not a memory entry above it` });
    } else {
      if (record.data.type === 'memory') memoryIds.add(record.data.entry.id);
      records.push(record.data);
    }
  }
  if (!headerSeen) problems.push({ message: `empty: a Reverie export starts with a {"type":"${EXPORT_HEADER_TYPE}"} line` });
  else if (problems.length === 0 && end === undefined)
    problems.push({ line: lines.length, message: 'no end line: the file was cut short' });
  else if (end !== undefined && problems.length === 0 && end.records !== records.length) {
    problems.push({ line: end.line, message: `the end line counts ${end.records} records, the file has ${records.length}` });
  }
  return { records, problems };
}
