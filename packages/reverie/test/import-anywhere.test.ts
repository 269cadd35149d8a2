import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIfStale, repositoryRoot } from './built-packages';

// Every published package loads wherever Node runs code, not only from a file: `node -e` and the
// REPL define a global `__filename` ("[eval]", or none) where the ESM build runs, so a build that
// asked `typeof __filename` to find itself failed there ("The argument 'filename' must be … an
// absolute path string. Received '[eval]'"). Each package is loaded from the CLI's folder, which
// depends on all of them, the way a user's project resolves them: through the exports map of the
// built output. Builds first when a dist/ is missing or stale.
const PUBLISHED = [
  'reverie',
  '@reverie/core',
  '@reverie/dream-state',
  '@reverie/file-store',
  '@reverie/dream',
  '@reverie/postgres',
  '@reverie/server',
];
const consumer = join(repositoryRoot, 'packages', 'cli');

beforeAll(() => buildIfStale(['core', 'dream-state', 'file-store', 'dream', 'postgres', 'reverie', 'server']), 600_000);

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: consumer, encoding: 'utf8', timeout: 60_000 }).trim();
}

describe('the published packages load from node -e and the REPL', () => {
  it.each(PUBLISHED)('import(%j) from node -e', (name) => {
    const out = node(['-e', `import(${JSON.stringify(name)}).then((m) => console.log('loaded', Object.keys(m).length > 0))`]);
    expect(out).toBe('loaded true');
  });

  it.each(PUBLISHED)('require(%j) from node -e', (name) => {
    const out = node(['-e', `console.log('loaded', Object.keys(require(${JSON.stringify(name)})).length > 0)`]);
    expect(out).toBe('loaded true');
  });

  it('require and import() of every package from the REPL, and a fact check that requires date-fns at first use', async () => {
    const lines = [
      ...PUBLISHED.map(
        (name) => `console.log('required', ${JSON.stringify(name)}, Object.keys(require(${JSON.stringify(name)})).length > 0)`,
      ),
      `Promise.all(${JSON.stringify(PUBLISHED)}.map((name) => import(name))).then((all) => console.log('imported', all.length), (error) => console.log('failed', error.message))`,
      `import('@reverie/core/internal').then((internal) => console.log('judged', Array.isArray(internal.judgeFactPreservation(['met Ana last week'], 'met Ana in the week before 2023-07-16').reasons)), (error) => console.log('failed', error.message))`,
    ];
    const out = await repl(lines, /judged \w+|failed/, /imported \d+|failed/);
    for (const name of PUBLISHED) expect(out).toContain(`required ${name} true`);
    expect(out).toContain(`imported ${PUBLISHED.length}`);
    expect(out).toContain('judged true');
  }, 90_000);
});

/**
 * Runs `lines` in a REPL and answers what it printed once every pattern of `until` has appeared.
 * Its input stays open until then: at the end of its input a REPL exits without waiting for
 * pending promises.
 */
function repl(lines: readonly string[], ...until: RegExp[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-i'], { cwd: consumer, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`The REPL did not print ${until.join(' and ')} within 60 s:\n${out}`));
    }, 60_000);
    const collect = (chunk: Buffer) => {
      out += chunk.toString();
      if (until.every((pattern) => pattern.test(out))) {
        clearTimeout(timer);
        child.stdin.end('.exit\n');
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    child.stdin.write(`${lines.join('\n')}\n`);
  });
}
