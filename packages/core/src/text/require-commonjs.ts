import { createRequire } from 'node:module';

/**
 * `require` for core's own dependencies, in both builds: the CJS build reads `import.meta.url` as
 * `__filename` (tsup.config.ts). Never a global `__filename`: `node -e` and the REPL define one
 * (`[eval]`) where the ESM build runs. Core uses it where a dependency
 * must load synchronously without a static import: a CommonJS-only package (which Node would
 * otherwise wrap for ESM, parsing its source for export names) and what loads at first use.
 */
export const requireCommonJs = createRequire(import.meta.url);
