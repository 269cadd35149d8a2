import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { InMemoryConversationLog, InMemoryLongTermMemory, ManualClock, silentLogger } from '@reverie/core';
import { DreamEngine } from '../src/engine/dream-engine';
import type { DreamPass, PassContext, PassPlan } from '../src/engine/dream-types';
import { FileDreamStateStore } from '@reverie/file-store';

/** SPEC O8: a log clear is archived in the run, and undo appends the cleared turns back. */
let dataPath: string;
beforeEach(async () => {
  dataPath = await mkdtemp(join(tmpdir(), 'reverie-log-clear-'));
});
afterEach(async () => {
  await rm(dataPath, { recursive: true, force: true });
});

const clearing: DreamPass = {
  name: 'log-clearer',
  phase: 'deep-sleep',
  requires: ['conversationLog'],
  model: 'none',
  async plan(context: PassContext): Promise<PassPlan> {
    const turns = await context.services.conversationLog!.read();
    const throughSeq = Math.max(...turns.map((turn) => turn.seq));
    return {
      operations: [{ op: 'conversation-log.clear', throughSeq, reason: 'read by every pass' }],
      itemsProcessed: turns.length,
      notes: [],
      refusals: [],
    };
  },
} as DreamPass;

it('undo of a run that cleared the conversation log appends the cleared turns back', async () => {
  const clock = new ManualClock('2026-06-01T00:00:00.000Z');
  const log = new InMemoryConversationLog({ clock });
  await log.append({ sessionId: 's1', role: 'user', content: 'I moved to Porto last week.', timestamp: '2026-05-31T10:00:00.000Z' });
  await log.append({ sessionId: 's1', role: 'assistant', content: 'Noted: Porto.', timestamp: '2026-05-31T10:00:05.000Z' });
  const engine = new DreamEngine(
    {
      dataPath,
      clock,
      state: new FileDreamStateStore({ dataPath, clock }),
      logger: silentLogger,
      memory: new InMemoryLongTermMemory({ clock }),
      conversationLog: log,
    },
    [clearing],
  );

  const report = await engine.run({ trigger: 'manual' });
  expect(await log.read()).toEqual([]);
  await log.append({ sessionId: 's2', role: 'user', content: 'A turn logged after the run.' });

  const undone = await engine.undo(report.runId);
  expect(undone.restored).toEqual(['conversation log through seq 2 (2 turn(s))']);
  expect((await log.read()).map((turn) => [turn.sessionId, turn.role, turn.content, turn.timestamp])).toEqual([
    ['s2', 'user', 'A turn logged after the run.', '2026-06-01T00:00:00.000Z'],
    ['s1', 'user', 'I moved to Porto last week.', '2026-05-31T10:00:00.000Z'],
    ['s1', 'assistant', 'Noted: Porto.', '2026-05-31T10:00:05.000Z'],
  ]);
});
