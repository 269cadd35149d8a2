import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where the built page is: `dist/inspector/` beside the package's `dist/index.js` (what `pnpm
 * build` writes and the package ships), also found from the sources (`src/inspector/`), which the
 * tests and a workspace run. Undefined when the page has not been built.
 */
export function builtInspectorFolder(moduleUrl: string = import.meta.url): string | undefined {
  const candidates = ['./inspector/', '../../dist/inspector/'].map((relative) => fileURLToPath(new URL(relative, moduleUrl)));
  return candidates.find((folder) => existsSync(`${folder}index.html`));
}
