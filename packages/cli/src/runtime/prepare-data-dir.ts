import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { CliError } from '../errors/cli-error';
import { EXIT } from '../errors/exit-codes';

/**
 * Makes sure the data directory can be used (exit 3 otherwise). For 'read', it must exist: a
 * typo in `--data` should not look like an empty memory. For 'write', a missing one is created.
 */
export async function prepareDataDir(dataPath: string, mode: 'read' | 'write'): Promise<void> {
  const fail = (why: string) => new CliError(`cannot use the data directory ${dataPath}: ${why}`, EXIT.DATA_DIR);
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(dataPath)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw fail((error as Error).message);
    if (mode === 'read') {
      throw new CliError(
        `no data directory at ${dataPath}: pass --data DIR (or set REVERIE_DATA) to point at an agent's data directory`,
        EXIT.DATA_DIR,
      );
    }
    try {
      await mkdir(dataPath, { recursive: true });
    } catch (mkdirError) {
      throw fail(`it does not exist and cannot be created (${(mkdirError as Error).message})`);
    }
    return;
  }
  if (!isDirectory) throw fail('it is not a directory');
  const wanted = constants.R_OK | constants.X_OK | (mode === 'write' ? constants.W_OK : 0);
  try {
    await access(dataPath, wanted);
  } catch {
    throw fail(mode === 'write' ? 'it is not readable and writable by this user' : 'it is not readable by this user');
  }
}
