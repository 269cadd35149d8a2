import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { invalidOptions, ReverieError } from '@reverie/core';

export interface LoadedDirective {
  text: string;
  /** 'file' when the data directory's directive file replaced the built-in text (SPEC D13). */
  source: 'file' | 'built-in';
}

const DIRECTIVE_FILE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*\.md$/;

/**
 * The system prompt of a pass: the whole text of `<dataPath>/<directiveFile>` when that file
 * exists and holds more than whitespace, otherwise (and without a data directory) `builtIn` (SPEC D13). The file replaces the
 * built-in text entirely; nothing is merged. A file that cannot be read for another reason than
 * being absent is an IO_ERROR, not a silent fallback, so an operator's edit is never ignored.
 */
export async function loadDirective(dataPath: string | undefined, directiveFile: string, builtIn: string): Promise<LoadedDirective> {
  assertDirectiveFileName(directiveFile);
  if (dataPath === undefined) return { text: builtIn, source: 'built-in' };
  const path = join(dataPath, directiveFile);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: builtIn, source: 'built-in' };
    throw new ReverieError(
      'IO_ERROR',
      `Could not read the directive file ${path}: ${(error as Error).message}. Make it a readable file, or remove it to use the built-in directive.`,
      { cause: error, details: { path } },
    );
  }
  return text.trim() === '' ? { text: builtIn, source: 'built-in' } : { text, source: 'file' };
}

function assertDirectiveFileName(directiveFile: string): void {
  if (DIRECTIVE_FILE_PATTERN.test(directiveFile) && !directiveFile.includes('..')) return;
  throw invalidOptions(
    `Invalid directive file name ${JSON.stringify(directiveFile)}: use a plain file name in the data directory ending in .md (letters, digits, ".", "_", "-"; no "/" and no ".."), such as "dream.md".`,
    [{ path: 'directiveFile', message: 'a plain file name ending in .md' }],
  );
}
