import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemoryLongTermMemory, ManualClock, RecordingLogger } from '@reverie/core';
import { DreamEngine, ImportanceDecayPass, MemoryConsolidationPass } from '@reverie/dream';
import { FileDreamStateStore } from '@reverie/file-store';

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 10, text: 10, reasoning: 0 },
};
const keepEverything = () =>
  new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: '{"toDelete": [], "toSave": []}' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    }),
  });

let dataPath: string;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-churn-'));
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

describe('cost follows churn (SPEC B1)', () => {
  it('does not send entries back to the model when only decay rewrote them (write: true)', async () => {
    const clock = new ManualClock('2026-06-01T00:00:00.000Z');
    const memory = new InMemoryLongTermMemory({ clock });
    for (const topic of [
      'billing runs monthly on stripe',
      'billing invoices go out on the first',
      'deploys go through staging',
      'deploys happen on tuesdays',
    ]) {
      await memory.save({ content: `Note: ${topic}`, importance: 0.9, lastSeenAt: '2026-01-01T00:00:00.000Z' });
    }
    const model = keepEverything();
    const engine = new DreamEngine(
      { dataPath, clock, state: new FileDreamStateStore({ dataPath, clock }), logger: new RecordingLogger(), memory, model },
      [new ImportanceDecayPass({ write: true }), new MemoryConsolidationPass()],
    );
    await engine.run({ trigger: 'schedule' });
    const firstCalls = model.doGenerateCalls.length;
    expect(firstCalls).toBeGreaterThan(0);

    for (let day = 0; day < 5; day++) {
      clock.advance(86_400_000);
      const report = await engine.run({ trigger: 'schedule' });
      expect(report.passes.find((p) => p.name === 'importance-decay')).toMatchObject({ status: 'ok' });
    }
    expect(model.doGenerateCalls.length).toBe(firstCalls);
    expect((await memory.list()).every((entry) => entry.importance < 0.9)).toBe(true);

    // A new entry that looks like an old one is worth exactly one call again.
    await memory.save({ content: 'Note: billing runs monthly on stripe, says finance' });
    await engine.run({ trigger: 'schedule' });
    expect(model.doGenerateCalls.length).toBe(firstCalls + 1);
  });
});
