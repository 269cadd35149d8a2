import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ILongTermMemory, type MemoryEntry, newId } from '@reverie/core';
import type { DreamOperation } from '@reverie/dream-state';
import { DreamEngine } from '../src/engine/dream-engine';
import type { DreamPass, DreamServices } from '../src/engine/dream-types';
import { freshEngineServices } from './__fixtures__/engine-services';

// SPEC B14, B15: changes the host decided on (a forget, an import) run as one undoable run, and
// a pass's new entry that states a forgotten fact is refused.
let dataPath: string;
let memory: ILongTermMemory;
let services: DreamServices;
beforeEach(() => void ({ dataPath, memory, services } = freshEngineServices('reverie-host-ops-')));
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

/** The operation that saves `content` as a new entry. */
function learn(content: string, now = '2026-06-01T00:00:00.000Z'): DreamOperation {
  const entry: MemoryEntry = {
    id: newId(),
    content,
    category: 'general',
    tags: [],
    createdAt: now,
    updatedAt: now,
    lastSeenAt: now,
    reinforcementCount: 1,
    importance: 0.5,
    metadata: {},
  };
  return { op: 'memory.save', entry, expectUpdatedAt: null, reason: 'learnt from the log' };
}

/** A pass that learns `contents` as new entries, as a log-reading pass would. */
function learningPass(contents: string[]): DreamPass {
  return {
    name: 'episode-extraction',
    phase: 'light-sleep',
    requires: ['memory'],
    model: 'none',
    plan: async (context) => ({
      operations: contents.map((content) => learn(content, context.now().toISOString())),
      itemsProcessed: contents.length,
      notes: [],
      refusals: [],
    }),
  };
}

describe('DreamEngine.applyOperations', () => {
  it('applies the host’s operations as one run that undo reverses', async () => {
    const kept = await memory.save({ content: 'The user prefers tea' });
    const gone = await memory.save({ content: 'The user’s sister is called Ana' });
    const engine = new DreamEngine(services, []);
    const report = await engine.applyOperations({
      trigger: 'forget',
      pass: 'forget',
      operations: [{ op: 'memory.delete', id: gone.id, expectUpdatedAt: gone.updatedAt, reason: 'forgotten' }],
    });
    expect(report).toMatchObject({ trigger: 'forget', passes: [{ name: 'forget', status: 'ok', applied: 1 }] });
    expect((await memory.list()).map((entry) => entry.id)).toEqual([kept.id]);
    expect((await engine.listRuns()).map((run) => run.runId)).toContain(report.runId);

    expect((await engine.undo(report.runId)).restored).toEqual([`memory ${gone.id}`]);
    expect(await memory.get(gone.id)).toEqual(gone);
  });

  it('refuses a pass name of a dream pass, a name that is not plain, and an invalid operation, writing nothing', async () => {
    const engine = new DreamEngine(services, [learningPass([])]);
    for (const pass of ['episode-extraction', '../x', '']) {
      await expect(engine.applyOperations({ trigger: 'forget', pass, operations: [] })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
    const bad = [{ op: 'memory.delete', id: 'x' }] as unknown as DreamOperation[];
    await expect(engine.applyOperations({ trigger: 'forget', pass: 'forget', operations: bad })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(await engine.listRuns()).toEqual([]);
  });
});

describe('DreamServices.forgotten', () => {
  it('refuses a pass’s new entry that states a forgotten fact, and reports it', async () => {
    const forgotten = { matcher: async () => (content: string) => content.toLowerCase().includes('ana') };
    const engine = new DreamEngine({ ...services, forgotten }, [learningPass(['The user’s sister is Ana', 'The user plays chess'])]);
    const report = await engine.run({ trigger: 'manual' });
    expect((await memory.list()).map((entry) => entry.content)).toEqual(['The user plays chess']);
    const [outcome] = report.passes;
    expect(outcome).toMatchObject({ status: 'ok', applied: 1 });
    expect(outcome?.status !== 'skipped' && outcome?.refusals).toEqual([
      expect.stringMatching(/^new memory [0-9a-f]{12} refused: it states a fact the user had Reverie forget$/),
    ]);
  });

  it('leaves the host’s own operations alone', async () => {
    const forgotten = { matcher: async () => () => true };
    const engine = new DreamEngine({ ...services, forgotten }, []);
    await engine.applyOperations({ trigger: 'import', pass: 'import', operations: [learn('The user’s sister is Ana')] });
    expect((await memory.list()).map((entry) => entry.content)).toEqual(['The user’s sister is Ana']);
  });
});
