import { createRequire } from 'node:module';
import { invalidOptions } from '@reverie/core';

/**
 * `require` from this package, in both builds: the CJS build reads `import.meta.url` as
 * `__filename` (tsup.config.ts). Never a global `__filename`: `node -e` and the REPL define one
 * (`[eval]`) where the ESM build runs.
 */
const requireFromReverie = createRequire(import.meta.url);

/**
 * What `use` takes from `name`, an optional dependency of `reverie` that `caller` reads its data
 * from by default; INVALID_OPTIONS saying what to install, or to give `{ path }` to
 * `instead`, when it is not installed.
 */
export function fromOptionalPackage<T>(name: string, use: (require: NodeJS.Require) => T, caller: string, instead: string): T {
  try {
    return use(requireFromReverie);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw invalidOptions(
      `${caller} needs the package ${name}, which is not installed: add it beside reverie (npm install ${name}), or pass { path } to ${instead}.`,
      [{ path: 'path', message: `${name} is not installed` }],
      { cause: error },
    );
  }
}
