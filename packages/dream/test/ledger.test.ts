import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ILongTermMemory } from '@reverie/core';
import { DreamEngine } from '../src/engine/dream-engine';
import type { DreamPass, DreamServices } from '../src/engine/dream-types';
import { DreamLedger } from '@reverie/file-store/internal';
import { ImportanceDecayPass } from '../src/passes/importance-decay/importance-decay-pass';
import { ArchiveRetentionPass } from '../src/passes/archive-retention/archive-retention-pass';
import { failingPass, freshEngineServices } from './__fixtures__/engine-services';

let dataPath: string;
let memory: ILongTermMemory;
let services: DreamServices;
beforeEach(() => void ({ dataPath, memory, services } = freshEngineServices('reverie-engine-ledger-')));
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

const failing = failingPass;
const needsModel: DreamPass = { ...failing, name: 'skill-gap', model: 'required' };

describe('the engine and the ledger (SPEC O5)', () => {
  it('appends one line per pass run, ok, failed or skipped, with the run id and trigger', async () => {
    await memory.save({ content: 'old fact', importance: 0.9, lastSeenAt: '2026-01-01T00:00:00.000Z' });
    const engine = new DreamEngine(services, [new ImportanceDecayPass({ report: true }), failing, needsModel, new ArchiveRetentionPass()]);
    const report = await engine.run({ trigger: 'schedule' });
    const { lines, invalidLines } = await new DreamLedger(dataPath).read();
    expect(invalidLines).toBe(0);
    expect(lines.map((l) => [l.pass, l.phase, l.status])).toEqual([
      ['importance-decay', 'light-sleep', 'ok'],
      ['episode-extraction', 'rem', 'failed'],
      ['skill-gap', 'rem', 'skipped'],
      ['archive-retention', 'deep-sleep', 'ok'],
    ]);
    for (const line of lines) expect(line).toMatchObject({ runId: report.runId, trigger: 'schedule', dryRun: false, schemaVersion: 1 });
    expect(lines[0]).toMatchObject({ itemsProcessed: 1, applied: 0, startedAt: '2026-06-01T00:00:00.000Z' });
    expect(lines[1]).toMatchObject({ error: 'model exploded' });
    expect(lines[2]!.notes).toEqual(['needs a language model']);
  });

  it('writes no line and no file in a dry run (SPEC O6)', async () => {
    await memory.save({ content: 'old fact', importance: 0.9, lastSeenAt: '2026-01-01T00:00:00.000Z' });
    const before = await memory.list();
    const engine = new DreamEngine(services, [new ImportanceDecayPass(), failing, new ArchiveRetentionPass()]);
    const report = await engine.run({ trigger: 'manual', dryRun: true });
    expect(report.passes.find((p) => p.name === 'importance-decay')).toMatchObject({ status: 'ok', applied: 0 });
    expect(await memory.list()).toEqual(before);
    // The only file a dry run writes is its plan, for apply.
    expect(readdirSync(join(dataPath, '_system', 'dreams'))).toEqual(['plans']);
    expect(readdirSync(join(dataPath, '_system', 'dreams', 'plans'))).toEqual([report.planId]);
    expect((await new DreamLedger(dataPath).read()).lines).toEqual([]);
  });
});
