import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The inspector page, built by `pnpm build` into `dist/inspector/` beside the server's code,
 * which serves it at /inspector/ (src/inspector/inspector-extension.ts). Everything is bundled:
 * the page loads nothing from another origin.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/inspector/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/inspector', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No inline assets: the Content-Security-Policy allows the page's own files only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  logLevel: 'warn',
});
