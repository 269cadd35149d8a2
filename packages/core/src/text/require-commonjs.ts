import { createRequire } from 'node:module';

/**
 * `require` for core's own dependencies, in both builds: `__filename` in the CJS build (where
 * `import.meta` is empty), `import.meta.url` in the ESM build. Core uses it where a dependency
 * must load synchronously without a static import: a CommonJS-only package (which Node would
 * otherwise wrap for ESM, parsing its source for export names) and what loads at first use.
 */
export const requireCommonJs = createRequire(typeof __filename === 'string' ? __filename : import.meta.url);
