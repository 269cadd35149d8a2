import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isReverieError } from '@reverie/core';
import { serveServerOptions } from '../src/commands/serve-server-options';
import { describeFailure } from '../src/errors/describe-failure';
import { openReverie } from '../src/runtime/open-reverie';

// SPEC D14 on the CLI's surfaces: the options a command builds from its flags and its --options
// file are refused as everywhere else, INVALID_OPTIONS with `details.issues` as [{ path, message }]
// (packages/server/test/invalid-options.test.ts covers the packages below), and exit 2.
const dataPath = mkdtempSync(join(tmpdir(), 'reverie-cli-invalid-options-'));
afterAll(() => rmSync(dataPath, { recursive: true, force: true }));

function refusal(attempt: () => unknown): { error: unknown; issues: Array<{ path: string; message: string }> } {
  try {
    attempt();
  } catch (error) {
    expect(isReverieError(error, 'INVALID_OPTIONS')).toBe(true);
    const { details } = error as Error & { details: Record<string, unknown> };
    expect(Object.keys(details)).toEqual(['issues']);
    return { error, issues: details.issues as Array<{ path: string; message: string }> };
  }
  throw new Error('the options were accepted');
}

describe("the CLI's INVALID_OPTIONS errors list their issues as { path, message }", () => {
  const cases: Array<[string, () => unknown, string]> = [
    ['reverie serve --host without a token', () => serveServerOptions({ host: '0.0.0.0' }, {}, false), 'token'],
    [
      'reverie serve --allow-origin file://',
      () => serveServerOptions({ 'allow-origin': 'file:///tmp/page.html' }, {}, false),
      'allowedOrigins',
    ],
    [
      'an --options file the dreaming options refuse',
      () => openReverie({ kind: 'files', dataPath }, { dreaming: { gates: { minHours: -1 } } as never }),
      'withDreaming',
    ],
  ];

  it.each(cases)('%s', (_name, attempt, path) => {
    const { error, issues } = refusal(attempt);
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) {
      expect(Object.keys(issue).sort()).toEqual(['message', 'path']);
      expect(issue.message).not.toBe('');
    }
    expect(issues.some((issue) => issue.path === path || issue.path.startsWith(`${path}.`))).toBe(true);
    expect(describeFailure(error).exitCode).toBe(2);
  });
});
