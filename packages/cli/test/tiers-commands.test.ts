import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CycleReport, TierReport } from 'reverie';
import { FileMemoryStore } from '@reverie/file-store';
import { expectOneLineError, runJson, runReverie, tempDir } from './__fixtures__/run-reverie';

let dir: ReturnType<typeof tempDir>;
let data: string[];
beforeEach(() => {
  dir = tempDir();
  data = ['--data', dir.dataPath];
});
afterEach(() => dir.remove());

const DAY = 86_400_000;

/** Three facts noted 60 days ago and never recalled, and one noted today. */
async function seed(): Promise<{ old: string[]; fresh: string }> {
  const memory = new FileMemoryStore({ dataPath: dir.dataPath });
  const then = new Date(Date.now() - 60 * DAY);
  const old: string[] = [];
  for (const place of ['Lisbon', 'Porto', 'Faro'])
    old.push((await memory.save({ content: `The user visited ${place} for a conference`, createdAt: then, lastSeenAt: then })).id);
  const { id: fresh } = await memory.save({ content: 'The user is learning the cello' });
  await memory.close();
  return { old, fresh };
}

describe('tiers on the command line (SPEC B13)', () => {
  it('dry-runs and runs tier-migration, then lists, searches, explains and counts the tiers', async () => {
    const { old, fresh } = await seed();
    const options = join(dir.dataPath, 'dreaming.json');
    writeFileSync(options, JSON.stringify({ tiers: { enabled: true } }));
    const opts = ['--options', options];

    const dry = await runJson<CycleReport>([...data, 'dream', 'run', '--pass', 'tier-migration', '--dry-run', ...opts]);
    const planned = dry.passes[0]!;
    expect(planned).toMatchObject({ name: 'tier-migration', status: 'ok' });
    expect(planned.status === 'ok' && planned.planned?.length).toBe(3);
    expect(await runJson<unknown[]>([...data, 'memory', 'list', '--tier', 'cold', '--format', 'json'])).toEqual([]);

    const run = await runJson<CycleReport>([...data, 'dream', 'run', '--pass', 'tier-migration', ...opts]);
    expect(run.passes[0]).toMatchObject({ name: 'tier-migration', status: 'ok', applied: 3 });

    const cold = await runJson<Array<{ id: string; tier: string }>>([...data, 'memory', 'list', '--tier', 'cold', '--format', 'json']);
    expect(cold.map((entry) => entry.id).sort()).toEqual([...old].sort());
    expect(cold.every((entry) => entry.tier === 'cold')).toBe(true);

    const hotOnly = await runJson<unknown[]>([...data, 'memory', 'search', 'conference', '--tiers', 'hot', '--format', 'json']);
    expect(hotOnly).toEqual([]);
    const all = await runReverie([...data, 'memory', 'search', 'conference', '--tiers', 'all']);
    expect(all.stdout).toContain('[cold] The user visited Lisbon');

    const explained = await runReverie([...data, 'memory', 'explain', old[0]!, ...opts]);
    expect(explained.code, explained.stderr).toBe(0);
    expect(explained.stdout).toMatch(/tier: cold; value score 0\.\d\d/);
    expect(explained.stdout).toMatch(/parts: recall 0\.00, importance /);

    const report = await runJson<TierReport & { enabled: boolean }>([...data, 'memory', 'tiers', ...opts, '--format', 'json']);
    expect(report).toMatchObject({ hot: 1, cold: 3, tiered: true, enabled: true });
    expect(report.nearDemotion.map((item) => item.id)).toEqual([fresh]);
    const text = await runReverie([...data, 'memory', 'tiers']);
    expect(text.stdout).toContain('1 hot, 3 cold (25% hot)');
    expect(text.stdout).toContain('tier migration off');

    // Undo brings every moved entry back.
    expect((await runReverie([...data, 'dream', 'undo', run.runId])).code).toBe(0);
    expect(await runJson<unknown[]>([...data, 'memory', 'list', '--tier', 'cold', '--format', 'json'])).toEqual([]);
  });

  it('refuses a bad tier choice with a usage error', async () => {
    expectOneLineError(await runReverie([...data, 'memory', 'search', 'x', '--tiers', 'warm']), 2, /tiers/);
    expectOneLineError(await runReverie([...data, 'memory', 'list', '--tier', 'warm']), 2, /tier/);
    expectOneLineError(await runReverie([...data, 'memory', 'tiers', '--nearest', '-1']), 2, /nearest/);
  });
});
