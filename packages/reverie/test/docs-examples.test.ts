import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIfStale } from './built-packages';

// The docs cannot drift from the API: every ```ts block of README.md and docs/*.md is
// type-checked under strict settings against the built packages, as a user's project would see
// them (`reverie` and `@reverie/*` through their exports maps). A block tagged ```ts run is also
// run with node, offline, in an empty directory. A block tagged ```ts continued is appended to the
// block before it (they form one module). Other tags (```text, ```sh, ```json…) are not checked.

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(packageDir, '../..');
/** In dependency order: a package's declarations are built against those of the ones before it. */
const BUILT = ['core', 'dream-state', 'file-store', 'dream', 'postgres', 'reverie'];

interface Example {
  file: string;
  line: number;
  code: string;
  run: boolean;
}

function examples(): Example[] {
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  const found: Example[] = [];
  for (const file of files) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const tags = /^```ts(?:\s+(.*))?$/.exec(lines[i]!.trim())?.[1]?.split(/\s+/) ?? (lines[i]!.trim() === '```ts' ? [] : undefined);
      if (tags === undefined) continue;
      const start = i + 1;
      const body: string[] = [];
      for (i = start; i < lines.length && lines[i]!.trim() !== '```'; i++) body.push(lines[i]!);
      const previous = found[found.length - 1];
      if (tags.includes('continued') && previous?.file === file) {
        previous.code += `\n${body.join('\n')}`;
        previous.run ||= tags.includes('run');
      } else {
        found.push({ file, line: start, code: body.join('\n'), run: tags.includes('run') });
      }
    }
  }
  return found;
}

let workDir: string;
const all = examples();
const fileOf = (example: Example) => `${example.file.replace(/[/.]/g, '_')}_${example.line}.ts`;

beforeAll(() => {
  buildIfStale(BUILT);
  // Inside the package, so `reverie` resolves to its own exports (self-reference) and its
  // dependencies (`ai`, `zod`, `@reverie/*`, `@ai-sdk/openai`) resolve as in a user's project.
  workDir = mkdtempSync(join(packageDir, '.docs-check-'));
  for (const example of all) writeFileSync(join(workDir, fileOf(example)), `${example.code}\nexport {};\n`);
}, 300_000);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('the TypeScript examples in README.md and docs/', () => {
  it('finds the examples', () => {
    expect(all.length).toBeGreaterThan(5);
  });

  it('type-check against the built packages under strict settings', () => {
    const program = ts.createProgram(
      all.map((example) => join(workDir, fileOf(example))),
      {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        lib: ['lib.es2023.d.ts'],
      },
    );
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      if (!diagnostic.file || diagnostic.start === undefined) return message;
      const example = all.find((candidate) => join(workDir, fileOf(candidate)) === diagnostic.file!.fileName);
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      const where = example ? `${example.file}, the block at line ${example.line} (+${line})` : relative(workDir, diagnostic.file.fileName);
      return `${where}: ${message}`;
    });
    expect(problems).toEqual([]);
  }, 120_000);

  it.each(all.filter((example) => example.run).map((example) => [`${example.file}:${example.line}`, example] as const))(
    'runs %s',
    (_, example) => {
      const js = ts.transpileModule(example.code, {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      }).outputText;
      const script = join(workDir, fileOf(example).replace(/\.ts$/, '.mjs'));
      writeFileSync(script, js);
      const cwd = mkdtempSync(join(tmpdir(), 'reverie-docs-run-'));
      try {
        execFileSync(process.execPath, [script], { cwd, stdio: 'pipe', timeout: 60_000, env: { ...process.env, OPENAI_API_KEY: '' } });
      } catch (error) {
        const failed = error as { stderr?: Buffer; stdout?: Buffer };
        throw new Error(
          `${example.file}, the block at line ${example.line} failed:\n${failed.stderr?.toString() ?? ''}${failed.stdout?.toString() ?? ''}`,
        );
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
