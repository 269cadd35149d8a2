import { ReverieError } from '@reverie/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportToStderr } from './report-to-stderr';

afterEach(() => vi.restoreAllMocks());

describe('reportToStderr', () => {
  it('writes the whole failure to stderr: code, message with its paths, details and cause', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    const cause = Object.assign(new Error("EIO: i/o error, open '/srv/agent/.reverie/memory/x.json'"), { code: 'EIO' });
    reportToStderr(
      new ReverieError('IO_ERROR', 'Could not write memory (/srv/agent/.reverie/memory/x.json): EIO.', {
        cause,
        details: { path: '/srv/agent/.reverie/memory/x.json' },
      }),
    );
    const text = written.join('');
    expect(text).toMatch(/^reverie server: \[IO_ERROR\] ReverieError: Could not write memory \(\/srv\/agent\/\.reverie\/memory\/x\.json\)/);
    expect(text).toContain('details: {"path":"/srv/agent/.reverie/memory/x.json"}');
    expect(text).toContain("cause: Error: EIO: i/o error, open '/srv/agent/.reverie/memory/x.json'");
  });
});
