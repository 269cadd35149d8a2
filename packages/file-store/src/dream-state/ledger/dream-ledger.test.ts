import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ledgerPath } from '../dream-state-paths';
import { DreamLedger } from './dream-ledger';
import type { LedgerLine } from '@reverie/dream-state';

let dataPath: string;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-ledger-'));
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

const line = (overrides: Partial<LedgerLine> = {}): LedgerLine => ({
  schemaVersion: 1,
  runId: 'run000000001',
  startedAt: '2026-06-01T00:00:00.000Z',
  completedAt: '2026-06-01T00:00:02.000Z',
  durationMs: 2000,
  phase: 'rem',
  pass: 'memory-consolidation',
  status: 'ok',
  itemsProcessed: 12,
  applied: 3,
  dryRun: false,
  trigger: 'manual',
  tokens: { input: 900, output: 120 },
  notes: ['1 duplicate group merged'],
  ...overrides,
});

describe('DreamLedger', () => {
  it('appends one JSON line per record at <dataPath>/_system/dreams/ledger.jsonl and reads them back in order', async () => {
    const ledger = new DreamLedger(dataPath);
    expect(await ledger.read()).toEqual({ lines: [], invalidLines: 0 });
    await ledger.append(line());
    await ledger.append(line({ pass: 'archive-retention', phase: 'deep-sleep', status: 'skipped' }));
    expect(ledger.location).toBe(join(dataPath, '_system', 'dreams', 'ledger.jsonl'));
    const text = readFileSync(ledgerPath(dataPath), 'utf8');
    expect(text.split('\n')).toHaveLength(3);
    expect(JSON.parse(text.split('\n')[0]!)).toEqual(line());
    expect((await ledger.read()).lines.map((l) => l.pass)).toEqual(['memory-consolidation', 'archive-retention']);
  });

  it('skips and counts a torn last line and lines that do not match the schema', async () => {
    const ledger = new DreamLedger(dataPath);
    await ledger.append(line());
    appendFileSync(ledgerPath(dataPath), `${JSON.stringify({ ...line(), schemaVersion: 2 })}\n`);
    appendFileSync(ledgerPath(dataPath), '{"schemaVersion":1,"runId":"run0000');
    const read = await ledger.read();
    expect(read.lines).toHaveLength(1);
    expect(read.invalidLines).toBe(2);
  });

  it('refuses to append a record that breaks the schema (a dry-run line, say)', async () => {
    const ledger = new DreamLedger(dataPath);
    await expect(ledger.append({ ...line(), dryRun: true } as never)).rejects.toThrow();
    expect((await ledger.read()).lines).toEqual([]);
  });
});
