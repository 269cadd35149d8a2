import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHost } from './host';

let dataPath: string;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-tsyringe-host-'));
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

describe('examples/tsyringe-host', () => {
  it('uses the injectable store the app registered, with its own dependencies, and the app resolves what Reverie built', async () => {
    const result = await runHost(dataPath);
    expect(result.storeIsTheHosts).toBe(true);
    expect(result.sameMemory).toBe(true);
    expect(result.sameStore).toBe(true);
    expect(result.recalled[0]).toBe('Ana is allergic to peanuts');
    expect(result.scratchExpiry).toEqual({ status: 'ok', phase: 'deep-sleep' });
    expect(result.remaining).toEqual(['Ana is allergic to peanuts']);
    expect(result.audit).toEqual([
      expect.stringMatching(/^user:ana: saved \w+ \(people\/ana\)$/),
      expect.stringMatching(/^user:ana: saved \w+ \(scratch\)$/),
      expect.stringMatching(/^user:ana: deleted \w+$/),
    ]);
  });

  it('runs as the README says (pnpm start)', () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const output = execFileSync(process.execPath, ['--import', 'tsx', join(here, 'main.ts')], { cwd: join(here, '..'), encoding: 'utf8' });
    expect(output).toContain("The dream cycle ran the app's own pass: { status: 'ok', phase: 'deep-sleep' }");
  }, 60_000);
});
