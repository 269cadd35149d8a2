import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { InMemoryLongTermMemory, ManualClock, RecordingLogger } from '@reverie/core';
import { DreamEngine, MemoryConsolidationPass } from '@reverie/dream';
import { FileDreamStateStore } from '@reverie/file-store';

let dataPath: string;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-lookalikes-'));
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

it('refuses a model merge of look-alikes that describe different moments (SPEC D3)', async () => {
  const clock = new ManualClock('2026-11-01T00:00:00.000Z');
  const memory = new InMemoryLongTermMemory({ clock });
  const august = await memory.save({
    content: 'Power cut at the flat, fridge emptied',
    category: 'episodes',
    metadata: { 'subject.point': '2026-08-13' },
  });
  const october = await memory.save({
    content: 'Power cut at the flat, fridge emptied',
    category: 'episodes',
    metadata: { 'subject.point': '2026-10-31' },
  });
  const model = new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            toDelete: [],
            toSave: [{ content: 'Power cut at the flat, fridge emptied', sourceIds: [august.id, october.id] }],
          }),
        },
      ],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
      warnings: [],
    }),
  });
  const engine = new DreamEngine(
    { dataPath, clock, state: new FileDreamStateStore({ dataPath, clock }), logger: new RecordingLogger(), memory, model },
    [new MemoryConsolidationPass()],
  );
  const report = await engine.run({ trigger: 'manual' });
  const pass = report.passes[0]!;
  expect(model.doGenerateCalls.length).toBeGreaterThan(0);
  // The model proposed a merge and the guards refused it: the pass says so with a warning, not a plain ok.
  expect(pass.status).toBe('warning');
  expect(pass.status === 'warning' && pass.refusals.join('\n')).toMatch(/different moments \(subject time 2026-08-13 and 2026-10-31\)/);
  expect((await memory.list()).map((entry) => entry.id).sort()).toEqual([august.id, october.id].sort());
});
