import { stat } from 'node:fs/promises';

/** The file's `stat`, or undefined when it does not exist; any other failure throws. */
export async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
