import { resolve } from 'node:path';
import { SCOPE_ADVICE, scopeProblem } from '@reverie/core/internal';
import { scopeDataPath } from 'reverie/internal';
import { UsageError } from '../errors/cli-error';
import { prepareDataDir } from './prepare-data-dir';

/** The scope of a PostgreSQL database when `--scope` is not given (as `.withPostgres()` uses). */
export const DEFAULT_DATABASE_SCOPE = 'default';

/**
 * Where a command's memory and dream state live: the file stores of a data directory (a scope's
 * own folder below it with `--scope`), or one scope of a PostgreSQL database (`--postgres`),
 * where the data directory holds only the directives the dream passes read.
 */
export type CliTarget =
  | { kind: 'files'; dataPath: string }
  | {
      kind: 'postgres';
      url: string;
      scope: string;
      /** Where the directives are read from; never written. */
      dataPath: string;
      /** Whether `--data` or `REVERIE_DATA` named it (then it must exist); else the directives are the built-in ones when `./.reverie` is absent. */
      dataNamed: boolean;
    };

export interface TargetOptions {
  data?: string | boolean | undefined;
  scope?: string | boolean | undefined;
  postgres?: string | boolean | undefined;
}

/** The target of the global options and the environment (`REVERIE_DATA`, `REVERIE_SCOPE`, `REVERIE_DATABASE_URL`); bad values are usage errors. */
export function resolveTarget(options: TargetOptions, env: NodeJS.ProcessEnv, cwd: string): CliTarget {
  const dataOption = typeof options.data === 'string' ? options.data : env.REVERIE_DATA || undefined;
  const dataPath = resolve(cwd, dataOption ?? '.reverie');
  const scope = typeof options.scope === 'string' ? options.scope : env.REVERIE_SCOPE || undefined;
  if (scope !== undefined) {
    const problem = scopeProblem(scope);
    if (problem) throw new UsageError(`invalid --scope ${JSON.stringify(scope)}: ${problem}; ${SCOPE_ADVICE}`);
  }
  const fromOption = typeof options.postgres === 'string';
  const url = fromOption ? (options.postgres as string) : env.REVERIE_DATABASE_URL || undefined;
  if (url === undefined) return { kind: 'files', dataPath: scope === undefined ? dataPath : scopeDataPath(dataPath, scope) };
  if (!/^postgres(ql)?:\/\//.test(url)) {
    const source = fromOption ? '--postgres' : 'REVERIE_DATABASE_URL';
    throw new UsageError(
      `${source} must be a PostgreSQL connection string, postgres://USER:PASSWORD@HOST:5432/DATABASE (got ${JSON.stringify(redactUrl(url))})`,
    );
  }
  return { kind: 'postgres', url, scope: scope ?? DEFAULT_DATABASE_SCOPE, dataPath, dataNamed: dataOption !== undefined };
}

/**
 * Makes sure the target can be used (exit 3 otherwise). Files: the data directory (created for
 * 'write'). PostgreSQL: a data directory named for its directives must exist and be readable; it
 * is never created or written. The database itself answers at the first statement.
 */
export async function prepareTarget(target: CliTarget, access: 'read' | 'write'): Promise<void> {
  if (target.kind === 'files') await prepareDataDir(target.dataPath, access);
  else if (target.dataNamed) await prepareDataDir(target.dataPath, 'read');
}

/** Where the target is, for messages: the data directory, or the scope of the database (without its password). */
export function describeTarget(target: CliTarget): string {
  return target.kind === 'files' ? target.dataPath : `scope ${target.scope} of ${redactUrl(target.url)}`;
}

/** A connection string without its password. Pure. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}
