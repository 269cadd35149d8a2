import { ReverieError } from '@reverie/core';

/** One thing wrong with an import file, at a line (1-based) when it has one. */
export interface ImportProblem {
  line?: number;
  message: string;
}

/** The most problems an error lists; the count says how many there were. */
const MAX_LISTED = 20;

/** INVALID_INPUT naming each problem by line (`details.problems`); nothing was written. */
export function importRefused(source: string, problems: readonly ImportProblem[]): ReverieError {
  const listed = problems.slice(0, MAX_LISTED);
  const lines = listed.map((problem) => (problem.line === undefined ? problem.message : `line ${problem.line}: ${problem.message}`));
  const more = problems.length > MAX_LISTED ? `; and ${problems.length - MAX_LISTED} more` : '';
  return new ReverieError(
    'INVALID_INPUT',
    `Nothing was imported from ${source}: ${lines.join('; ')}${more}. Fix the file (or export it again) and import it again.`,
    { details: { source, problems: listed, count: problems.length } },
  );
}
