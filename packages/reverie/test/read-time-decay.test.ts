import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { effectiveImportance, ManualClock } from '@reverie/core';
import { createReverie, type Reverie } from '../src';

const NOW = '2026-06-01T00:00:00.000Z';
const DAY = 86_400_000;
let root: string;
let reverie: Reverie | undefined;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'reverie-decay-'));
});
afterEach(async () => {
  await reverie?.close();
  reverie = undefined;
  rmSync(root, { recursive: true, force: true });
});

describe('read-time decay from one setting (SPEC D7)', () => {
  it('drives the store’s browsing and the decay pass, and the pass rewrites nothing', async () => {
    const clock = new ManualClock(NOW);
    const decay = { graceDays: 10, halfLifeDays: 20, floor: 0.05 };
    reverie = createReverie({ dataPath: root, clock })
      .withMemory({ decay })
      .withDreaming({ enabled: false, importanceDecay: { report: true } })
      .build();
    expect(reverie.decay).toEqual(decay);
    const seen = new Date(Date.parse(NOW) - 30 * DAY).toISOString();
    const entry = await reverie.memory!.save({ content: 'The user used to run a Jenkins server', importance: 0.8, lastSeenAt: seen });
    const file = join(root, 'memory', 'general', `${entry.id}.json`);
    const onDisk = readFileSync(file, 'utf8');

    // 30 days unseen, 10 of grace, 20 decaying = one half-life under these options.
    const [browsed] = await reverie.memory!.search({ maxResults: 1 });
    expect(browsed!.score).toBeCloseTo(0.4, 12);
    expect(reverie.importanceOf(entry)).toBeCloseTo(0.4, 12);
    expect(effectiveImportance(entry, clock.now(), reverie.decay)).toBe(reverie.importanceOf(entry));

    const report = await reverie.dreams.run({ pass: 'importance-decay' });
    const pass = report.passes.find((p) => p.name === 'importance-decay');
    expect(pass).toMatchObject({ status: 'ok', applied: 0, details: { decayed: 1, rewritten: 0, maxDrop: 0.4 } });
    expect(readFileSync(file, 'utf8')).toBe(onDisk);
  });
});
