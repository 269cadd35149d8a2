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
  expect(byName.get('importance-decay')).toMatchObject({ status: 'ok' });
  expect(byName.get('memory-consolidation')).toMatchObject({ status: 'ok' });
  expect(byName.get('episode-extraction')).toMatchObject({ status: 'skipped', reason: 'needs a language model' });
  // The deterministic pre-pass folds the exact duplicates; decay lowers the stale entries.
  expect(result.changes).toContain('= merged 3 entries into: (user-preferences/units) The user prefers metric units! (reinforced 3×)');
  expect(result.changes.some((line) => /standing desks.*importance 0\.60 → 0\.\d\d/.test(line))).toBe(true);
  // The entry recalled on every turn today is promoted (after a little decay).
  expect(byName.get('promotion')).toMatchObject({ status: 'ok', applied: 1 });
  expect(result.changes.some((line) => /Atlas wiki lives.*importance 0\.50 → 0\.6\d/.test(line))).toBe(true);
  // Look-alike trips at different times stay apart.
  expect(result.changes.filter((line) => line.includes('Lisbon') && line.startsWith('- removed'))).toEqual([]);

  const text = lines.join('\n');
  expect(text).toContain('need a language model');
  expect(text).toContain('REVERIE_MODEL=openai:');
  expect(text).toContain(`reverie.dreams.undo('${result.report.runId}')`);
  expect(text).toMatch(/Dream status, last 24 h/);
});
