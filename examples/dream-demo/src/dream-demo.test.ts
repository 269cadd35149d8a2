import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runDreamDemo } from './dream-demo';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('without a model runs the model-free passes, shows what changed and says how to enable the rest', async () => {
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-dream-demo-'));
  dirs.push(dataPath);
  const lines: string[] = [];
  const result = await runDreamDemo({ dataPath, now: new Date(), print: (line) => lines.push(line) });

  const byName = new Map(result.report.passes.map((outcome) => [outcome.name, outcome]));
  // Importance decays where it is read: the pass reports the stale entries and rewrites none.
  expect(byName.get('importance-decay')).toMatchObject({
    status: 'ok',
    applied: 0,
    notes: expect.arrayContaining([expect.stringMatching(/entries have decayed below their stored importance/)]),
  });
  expect(byName.get('memory-consolidation')).toMatchObject({ status: 'ok' });
  expect(byName.get('episode-extraction')).toMatchObject({ status: 'skipped', reason: 'needs a language model' });
  // The deterministic pre-pass folds the exact duplicates; the stale entries are not rewritten.
  expect(result.changes).toContain('= merged 3 entries into: (user-preferences/units) The user prefers metric units! (reinforced 3×)');
  expect(result.changes.some((line) => line.includes('standing desks'))).toBe(false);
  // The entry recalled on every turn today is promoted, from what it is worth after a little decay.
  expect(byName.get('promotion')).toMatchObject({ status: 'ok', applied: 1 });
  expect(result.changes.some((line) => /Atlas wiki lives.*importance 0\.4\d → 0\.6\d/.test(line))).toBe(true);
  // Look-alike trips at different times stay apart.
  expect(result.changes.filter((line) => line.includes('Lisbon') && line.startsWith('- removed'))).toEqual([]);

  const text = lines.join('\n');
  expect(text).toContain('need a language model');
  expect(text).toContain('REVERIE_MODEL=openai:');
  expect(text).toContain(`reverie.dreams.undo('${result.report.runId}')`);
  expect(text).toMatch(/Dream status, last 24 h/);
});
