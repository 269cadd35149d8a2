import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Proves what users get from npm: the built package loads in a plain `node` process through
// its exports map, as ESM and as CommonJS, the main entry and `./internal` alike. Builds first when dist/ is missing or stale.
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let consumerDir: string;

function newestMtime(dir: string): number {
  let newest = 0;
  const walk = (path: string) => {
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const name of execFileSync('ls', [path], { encoding: 'utf8' }).split('\n').filter(Boolean)) walk(join(path, name));
    } else newest = Math.max(newest, stats.mtimeMs);
  };
  walk(dir);
  return newest;
}

function runNode(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: consumerDir, encoding: 'utf8' }).trim();
}

beforeAll(() => {
  const built = join(packageDir, 'dist', 'index.js');
  if (!existsSync(built) || statSync(built).mtimeMs < newestMtime(join(packageDir, 'src'))) {
    execFileSync(join(packageDir, 'node_modules', '.bin', 'tsup'), [], { cwd: packageDir, stdio: 'pipe' });
  }
  consumerDir = mkdtempSync(join(tmpdir(), 'reverie-consumer-'));
  mkdirSync(join(consumerDir, 'node_modules', '@reverie'), { recursive: true });
  symlinkSync(packageDir, join(consumerDir, 'node_modules', '@reverie', 'core'), 'dir');
}, 120_000);

afterAll(() => {
  if (consumerDir) rmSync(consumerDir, { recursive: true, force: true });
});

const probe = `
  const memory = new core.InMemoryLongTermMemory();
  const saved = await memory.save({ content: 'built output works', category: 'checks/build' });
  const hits = await memory.search({ text: 'built output' });
  let code = 'none';
  try { core.validateCategory('../etc'); } catch (error) { code = error.code; }
  console.log(JSON.stringify({
    id: /^[0-9a-f]{12}$/.test(saved.id),
    hits: hits.length,
    token: typeof core.TOKENS.LongTermMemory,
    code,
    isError: new core.ReverieError('NOT_FOUND', 'x') instanceof Error,
    // The two entries share their code: an error the internal entry makes is the main entry's class.
    oneClass: internal.internalError(new Error('x'), 'probe').constructor === core.ReverieError,
    stems: internal.normaliseTerms('Mondays meetings'),
    judged: internal.judgeFactPreservation(['user does not eat meat'], 'user eats meat').reasons,
    // Relative dates resolve with date-fns, which each build requires at this first use.
    anchored: [
      internal.judgeFactPreservation(['(noted 2024-05-20) the release went out last Friday'], 'The release went out on Friday, 2024-05-17.').reasons,
      internal.judgeFactPreservation(['(noted 2024-05-20) the release went out last Friday'], 'The release went out on 2024-05-16.').reasons.includes('adds date "2024-05-16"'),
    ],
  }));
`;
const expected = {
  id: true,
  hits: 1,
  token: 'symbol',
  code: 'INVALID_CATEGORY',
  isError: true,
  oneClass: true,
  // The stemmer (wink-porter2-stemmer, CommonJS) loads from both builds.
  stems: ['monday', 'meet'],
  judged: ['missing negation "not eat"'],
  anchored: [[], true],
};

describe('@reverie/core build output', () => {
  it('loads as ESM through the exports map', () => {
    const out = runNode([
      '--input-type=module',
      '-e',
      `import * as core from '@reverie/core';\nimport * as internal from '@reverie/core/internal';\n${probe}`,
    ]);
    expect(JSON.parse(out)).toEqual(expected);
  });

  it('loads as CommonJS through the exports map', () => {
    const out = runNode([
      '-e',
      `const core = require('@reverie/core');\nconst internal = require('@reverie/core/internal');\n(async () => {${probe}})();`,
    ]);
    expect(JSON.parse(out)).toEqual(expected);
  });

  it('shares DI tokens between the ESM and CJS builds', () => {
    const out = runNode([
      '--input-type=module',
      '-e',
      `import { createRequire } from 'node:module';
       import { TOKENS } from '@reverie/core';
       const cjs = createRequire(process.cwd() + '/')('@reverie/core');
       console.log(TOKENS.LongTermMemory === cjs.TOKENS.LongTermMemory);`,
    ]);
    expect(out).toBe('true');
  });

  it('ships type declarations for both formats of both entries and the ESM-only testing entry', () => {
    for (const file of ['index.d.ts', 'index.d.cts', 'internal.d.ts', 'internal.d.cts', 'testing/index.d.ts', 'testing/index.js']) {
      expect(existsSync(join(packageDir, 'dist', file)), file).toBe(true);
    }
  });

  it('declares the testing entry ESM-only: require() is refused by the exports map', () => {
    const out = runNode([
      '-e',
      `try { require('@reverie/core/testing'); console.log('loaded'); } catch (error) { console.log(error.code); }`,
    ]);
    expect(out).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });
});
