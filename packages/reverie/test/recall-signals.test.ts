import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@reverie/core';
import { recallEventsPath } from '@reverie/file-store/internal';
import { createReverie, type Reverie } from 'reverie';

let dataPath: string;
const open: Reverie[] = [];
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-recall-'));
});
afterEach(async () => {
  for (const reverie of open.splice(0)) await reverie.close();
  rmSync(dataPath, { recursive: true, force: true });
});
const keep = (reverie: Reverie) => {
  open.push(reverie);
  return reverie;
};

type Tool = { execute?: (input: unknown, options: { toolCallId: string; messages: [] }) => unknown };
const call = async (tool: Tool, input: unknown) => tool.execute!(input, { toolCallId: 'c1', messages: [] });

describe('recall signals through the runtime (SPEC O4)', () => {
  it('records what turns and search_memory recall, promotes what is recalled often, and explains why', async () => {
    const clock = new ManualClock('2026-06-01T09:00:00Z');
    const reverie = keep(createReverie({ dataPath, clock }).withMemory().withDreaming().build());
    const deploys = await reverie.memory!.save({ content: 'The team deploys on Tuesdays after the standup.', importance: 0.5 });
    const oslo = await reverie.memory!.save({ content: 'The user once visited Oslo in winter.', importance: 0.5 });
    for (const session of ['s1', 's2']) await reverie.context.forTurn({ sessionId: session, message: 'When do we deploy?' });
    await call(reverie.tools.memory().search_memory as Tool, { query: 'deploy Tuesdays' });

    const report = await reverie.dreams.run({ trigger: 'test' });
    const names = report.passes.map((pass) => pass.name);
    expect(names.indexOf('recall-signals')).toBe(names.indexOf('importance-decay') + 1);
    expect(names.indexOf('promotion')).toBe(names.indexOf('archive-retention') - 1);
    expect((await reverie.memory!.get(deploys.id))!.importance).toBeCloseTo(0.65);
    expect((await reverie.memory!.get(deploys.id))!.lastSeenAt).toBe(deploys.lastSeenAt);
    expect((await reverie.memory!.get(oslo.id))!.importance).toBe(0.5);

    const promoted = await reverie.dreams.explain(deploys.id);
    expect(promoted).toMatchObject({ status: 'promoted', hits: 3 });
    expect(promoted.reasons.join('\n')).toMatch(/recalled 3×/);
    expect(await reverie.dreams.explain(oslo.id)).toMatchObject({ status: 'no-recalls' });
  });

  it('never changes what a search returns, and records nothing without dreaming', async () => {
    const plain = keep(createReverie({ dataPath }).withMemory().build());
    await plain.memory!.save({ content: 'The team deploys on Tuesdays.' });
    await plain.memory!.save({ content: 'Deploy freezes happen in December.' });
    const without = await plain.context.forTurn({ sessionId: 's1', message: 'deploy' });
    await plain.close();
    expect(existsSync(recallEventsPath(dataPath))).toBe(false);

    const recording = keep(createReverie({ dataPath }).withMemory().withDreaming({ enabled: false }).build());
    const withRecording = await recording.context.forTurn({ sessionId: 's1', message: 'deploy' });
    expect(withRecording.system).toEqual(without.system);
    await recording.close();
    expect(existsSync(recallEventsPath(dataPath))).toBe(true);
  });

  it('feeds the signal gate from the recall signals by default', async () => {
    const reverie = keep(
      createReverie({ dataPath })
        .withMemory()
        .withDreaming({ gates: { signal: { minUnpromoted: 1, minRecallCount: 2, minScore: 0.1 } } })
        .build(),
    );
    await reverie.memory!.save({ content: 'The team deploys on Tuesdays.' });
    expect(await reverie.dreams.trigger()).toMatchObject({ triggered: false, gate: 'signal' });
    await reverie.context.forTurn({ sessionId: 's1', message: 'deploy Tuesdays' });
    await reverie.context.forTurn({ sessionId: 's2', message: 'deploy Tuesdays' });
    await reverie.dreams.run({ pass: 'recall-signals' });
    expect((await reverie.dreams.trigger()).triggered).toBe(true);
  });
});
