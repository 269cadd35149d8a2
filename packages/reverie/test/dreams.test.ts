import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type IConversationLog, InMemoryConversationLog, ManualClock } from '@reverie/core';
import { FileDreamStateStore } from '@reverie/file-store';
import { createReverie, type Reverie } from 'reverie';
import { scriptedModel } from './scripted-model';

let dataPath: string;
let reverie: Reverie;
afterEach(async () => {
  await reverie.close();
  rmSync(dataPath, { recursive: true, force: true });
});
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-dreams-'));
});

describe('reverie.dreams', () => {
  it('keeps the dream state where withDreaming({ state }) puts it, and leaves that store open at close', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'reverie-dream-state-'));
    try {
      const clock = new ManualClock('2026-06-01T00:00:00Z');
      const state = new FileDreamStateStore({ dataPath: elsewhere, clock });
      reverie = createReverie({ dataPath, clock }).withMemory().withDreaming({ state }).build();
      await reverie.memory!.save({ content: 'Deploys happen on Tuesdays' });
      await reverie.memory!.save({ content: 'deploys happen on tuesdays' });
      const report = await reverie.dreams.run();
      expect(report.runFolder?.startsWith(join(elsewhere, '_system', 'dreams', 'runs'))).toBe(true);
      expect(existsSync(join(dataPath, '_system', 'dreams'))).toBe(false);
      expect((await reverie.dreams.listRuns()).map((run) => run.runId)).toEqual([report.runId]);
      const close = vi.spyOn(state, 'close');
      await reverie.close();
      expect(close).not.toHaveBeenCalled();
      expect((await state.runs.list()).map(({ manifest }) => manifest.runId)).toEqual([report.runId]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('refuses a dream state that is not a DreamStateStore', () => {
    reverie = createReverie({ dataPath }).build();
    expect(() =>
      createReverie({ dataPath })
        .withDreaming({ state: { runs: {} } as never })
        .build(),
    ).toThrow(/withDreaming\.state/);
  });

  it('merges duplicates without a model, leaves a run folder, and undoes the run', async () => {
    reverie = createReverie({ dataPath, clock: new ManualClock('2026-06-01T00:00:00Z') })
      .withMemory()
      .withDreaming()
      .build();
    await reverie.memory!.save({ content: 'The user lives in Lisbon.', createdAt: '2026-01-01T00:00:00.000Z' });
    await reverie.memory!.save({ content: 'the user lives in lisbon', lastSeenAt: '2026-05-01T00:00:00.000Z' });
    await reverie.memory!.save({ content: 'Deploys happen on Tuesdays' });

    const report = await reverie.dreams.run();
    const consolidation = report.passes.find((p) => p.name === 'memory-consolidation')!;
    expect(consolidation.status).toBe('ok');
    const live = await reverie.memory!.list();
    expect(live).toHaveLength(2);
    const merged = live.find((e) => /lisbon/i.test(e.content))!;
    expect(merged.reinforcementCount).toBe(2);
    expect(merged.createdAt).toBe('2026-01-01T00:00:00.000Z');
    expect(merged.lastSeenAt).toBe('2026-05-01T00:00:00.000Z');
    expect(readdirSync(join(dataPath, '_system', 'dreams', 'runs'))).toHaveLength(1);

    const again = await reverie.dreams.run();
    expect(again.passes.find((p) => p.name === 'memory-consolidation')).toMatchObject({ applied: 0 });

    await reverie.dreams.undo(report.runId);
    expect((await reverie.memory!.list()).map((e) => e.content).sort()).toEqual(
      ['Deploys happen on Tuesdays', 'The user lives in Lisbon.', 'the user lives in lisbon'].sort(),
    );
  });

  it('never writes what a dream run says into the conversation log (SPEC D16)', async () => {
    const model = scriptedModel(['{"toDelete": [], "toSave": []}']);
    // Preference inference would clear the log it read; off here, so what is left is what was logged.
    reverie = createReverie({ dataPath, model })
      .withMemory()
      .withConversationLog()
      .withDreaming({ preferenceInference: { enabled: false } })
      .build();
    await reverie.context.forTurn({ sessionId: 's1', message: 'I moved to Porto last week' });
    await reverie.context.recordReply('s1', 'Noted.');
    await reverie.memory!.save({ content: 'The user moved to Porto' });
    await reverie.memory!.save({ content: 'The user now lives in Porto, Portugal' });
    const report = await reverie.dreams.run();
    expect(report.passes.find((p) => p.name === 'memory-consolidation')?.status).toBe('ok');
    expect(model.doGenerateCalls.length).toBeGreaterThan(0);
    const logged = await reverie.conversationLog!.read();
    expect(logged.map((t) => t.content)).toEqual(['I moved to Porto last week', 'Noted.']);
    expect(existsSync(join(dataPath, '_system', 'dreams'))).toBe(true);
    // The run's prompts and replies live in _system/, outside memory: recall cannot reach them.
    expect((await reverie.memory!.search({ text: 'consolidation directive reply' })).map((r) => r.entry.category)).not.toContain('_system');
  });

  it('a cycle waits for the turns still being appended to the conversation log, and so does close()', async () => {
    const model = scriptedModel(['{"toDelete": [], "toSave": []}']);
    const inner = new InMemoryConversationLog();
    let appended = 0;
    const readsSaw: number[] = [];
    // A slow log: forTurn does not wait for it, the cycle that reads it must.
    const slow: IConversationLog = {
      append: async (turn) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        const logged = await inner.append(turn);
        appended += 1;
        return logged;
      },
      read: async (options) => {
        readsSaw.push(appended);
        return inner.read(options);
      },
      clear: (options) => inner.clear(options),
      close: () => inner.close(),
    };
    reverie = createReverie({ dataPath, model }).withMemory().withConversationLog({ store: slow }).withDreaming().build();
    // Loads the dream engine first, so the cycle below starts at once.
    await reverie.dreams.run({ dryRun: true });
    readsSaw.length = 0;
    await reverie.context.forTurn({ sessionId: 's1', message: 'I prefer answers in bullet points' });
    await reverie.context.recordReply('s1', 'Noted.');
    expect(appended).toBe(0);
    // The first turn of s1 read the log once to continue the session (SPEC M9); the cycle's reads come next.
    readsSaw.length = 0;
    await reverie.dreams.run();
    expect(readsSaw.length).toBeGreaterThan(0);
    expect(readsSaw.every((count) => count === 2)).toBe(true);

    await reverie.context.forTurn({ sessionId: 's1', message: 'And keep them short' });
    await reverie.close();
    expect(appended).toBe(3);
  });

  it('plans only what the registered services allow, and a dry run changes nothing', async () => {
    reverie = createReverie({ dataPath }).withMemory().withDreaming().build();
    await reverie.memory!.save({ content: 'same fact' });
    await reverie.memory!.save({ content: 'Same fact.' });
    const dry = await reverie.dreams.run({ dryRun: true });
    const planned = dry.passes.find((p) => p.name === 'memory-consolidation');
    expect(planned?.status === 'ok' && planned.planned?.length).toBe(3);
    expect(await reverie.memory!.list()).toHaveLength(2);
    // The only file a dry run writes is its plan, for apply.
    expect(readdirSync(join(dataPath, '_system', 'dreams'))).toEqual(['plans']);
    expect(readdirSync(join(dataPath, '_system', 'dreams', 'plans'))).toEqual([dry.planId]);
    await expect(reverie.dreams.run({ passes: ['no-such-pass'] })).rejects.toMatchObject({ code: 'UNKNOWN_PASS' });
  });

  it('a cycle report names a missing service as plan() does, by the builder call that adds it (SPEC D2)', async () => {
    reverie = createReverie({ dataPath, model: scriptedModel(['{"toDelete": [], "toSave": []}']) })
      .withMemory()
      .withDreaming()
      .build();
    const report = await reverie.dreams.run();
    const planned = new Map(reverie.dreams.plan().map((pass) => [pass.name, pass.reason]));
    const skipped = report.passes.filter((pass) => pass.status === 'skipped');
    expect(skipped.map((pass) => pass.name)).toEqual([
      'episode-extraction',
      'skill-gap',
      'skill-consolidation',
      'skill-optimization',
      'workflow-failure-analysis',
      'preference-inference',
    ]);
    for (const pass of skipped) expect(pass.status === 'skipped' && pass.reason).toBe(planned.get(pass.name));
    expect(report.passes.find((pass) => pass.name === 'skill-consolidation')).toMatchObject({
      reason: 'needs a skill store (.withSkills()) and a skill usage store (.withSkills())',
    });
  });

  it('refuses dreams.start() without .withDreaming(): nothing would ever be scheduled', async () => {
    reverie = createReverie({ dataPath }).withMemory().build();
    await expect(reverie.dreams.start()).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining('.withDreaming()'),
    });
  });
});
