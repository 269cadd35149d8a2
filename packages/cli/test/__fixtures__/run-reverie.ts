import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** The built binary (test/global-setup.ts builds it before any test runs). */
export const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli.js');

/** Variables the host machine may have set that would change what the CLI does. */
const SCRUBBED = [
  'REVERIE_DATA',
  'REVERIE_SCOPE',
  'REVERIE_DATABASE_URL',
  'REVERIE_MODEL',
  'REVERIE_API_KEY',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'OLLAMA_BASE_URL',
];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  /** Written to stdin, which is then closed. */
  input?: string;
  cwd?: string;
}

/** Runs `node dist/cli.js ...args` in a child process and collects what it printed. */
export function runReverie(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SCRUBBED) delete env[name];
  Object.assign(env, options.env);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, cwd: options.cwd ?? tmpdir(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Runs the CLI and parses its stdout as JSON, failing with its stderr when it did not exit 0. */
export async function runJson<T = unknown>(args: readonly string[], options: RunOptions = {}): Promise<T> {
  const result = await runReverie([...args, '--format', 'json'], options);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** A failure as users see it: the exit code, nothing on stdout, one line `reverie: …` on stderr, no stack. */
export function expectOneLineError(result: CliResult, code: number, message: RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stdout).toBe('');
  const lines = result.stderr.split('\n').filter(Boolean);
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^reverie: /);
  expect(lines[0]).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

/** A fresh temporary folder; `dataPath` inside it does not exist yet. */
export function tempDir(): { root: string; dataPath: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'reverie-cli-'));
  return { root, dataPath: join(root, 'data'), remove: () => rmSync(root, { recursive: true, force: true }) };
}
