import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InMemoryConversationLog,
  InMemoryFeedbackStore,
  InMemoryLongTermMemory,
  ManualClock,
  RecordingLogger,
  silentLogger,
  type TurnRole,
} from '@reverie/core';
import { DreamEngine } from '../../engine/dream-engine';
import type { CycleReport, DreamPass, PassContext, RanPassOutcome, PassPlan } from '../../engine/dream-types';
import { cursorsDir } from '@reverie/file-store/internal';
import { ScriptedGateway } from '../__fixtures__/scripted-gateway';
import { PreferenceInferencePass } from './preference-inference-pass';
import { PREFERENCE_DIRECTIVE } from './render-preference-prompt';
import { FileDreamStateStore } from '@reverie/file-store';

const NOW = '2026-06-01T12:00:00.000Z';
const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

let dataPath: string;
let clock: ManualClock;
let memory: InMemoryLongTermMemory;
let log: InMemoryConversationLog;
let feedback: InMemoryFeedbackStore;
beforeEach(async () => {
  dataPath = await mkdtemp(join(tmpdir(), 'reverie-preferences-'));
  clock = new ManualClock(NOW);
  memory = new InMemoryLongTermMemory({ clock });
  log = new InMemoryConversationLog({ clock });
  feedback = new InMemoryFeedbackStore({ clock });
});
afterEach(async () => {
  await rm(dataPath, { recursive: true, force: true });
});

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('');
}

type Script = (data: string, call: number) => unknown | Promise<unknown>;

/** A mock model answering each call with `script(<the call's data>, <call number>)` (objects are sent as JSON). */
function scriptedModel(script: Script): MockLanguageModelV3 {
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls += 1;
      const data = textOf(options.prompt.find((message) => message.role === 'user')!.content);
      const reply = await script(data, calls);
      return {
        content: [{ type: 'text', text: typeof reply === 'string' ? reply : JSON.stringify(reply) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
}

function prompts(model: MockLanguageModelV3): string[] {
  return model.doGenerateCalls.map((call) => textOf(call.prompt.find((message) => message.role === 'user')!.content));
}

/** A log reader that has finished with the log through `seq` (what episode extraction reports). */
function reader(seq: number): DreamPass {
  return {
    name: 'episode-extraction',
    phase: 'rem',
    requires: [],
    model: 'none',
    plan: async () => ({ operations: [], itemsProcessed: 0, notes: [], refusals: [] }),
    conversationLogReadThrough: async () => seq,
  };
}

function engine(model: MockLanguageModelV3 | undefined, others: DreamPass[] = []): DreamEngine {
  return new DreamEngine(
    {
      dataPath,
      clock,
      state: new FileDreamStateStore({ dataPath, clock }),
      logger: new RecordingLogger(),
      memory,
      conversationLog: log,
      feedback,
      ...(model ? { model } : {}),
    },
    [...others, new PreferenceInferencePass()],
  );
}

async function say(sessionId: string, role: TurnRole, content: string): Promise<number> {
  return (await log.append({ sessionId, role, content })).seq;
}

function outcome(report: CycleReport): RanPassOutcome {
  const pass = report.passes.find((p) => p.name === 'preference-inference')!;
  if (pass.status === 'skipped') throw new Error(`pass skipped: ${pass.reason}`);
  return pass;
}

async function cursor(): Promise<unknown> {
  const file = join(cursorsDir(dataPath), 'preference-inference.json');
  return existsSync(file) ? JSON.parse(await readFile(file, 'utf8')) : undefined;
}

async function logSeqs(): Promise<number[]> {
  return (await log.read()).map((turn) => turn.seq);
}

/** Five turns: two user complaints about emojis, an assistant answer, a [skip] turn and a system prompt. */
async function conversation(): Promise<void> {
  await say('s1', 'system', 'You are a helpful assistant. SYSTEM-SECRET');
  await say('s1', 'user', 'Please, no emojis in answers. [durable]');
  await say('s1', 'assistant', 'Understood 👍');
  await say('s1', 'user', 'I said NO emojis!!');
  await say('s2', 'user', 'my card pin is 1234 [skip]');
}

describe('PreferenceInferencePass (SPEC D11) in the engine', () => {
  it('infers preferences from the user turns it sent, then clears the log it read', async () => {
    await conversation();
    await feedback.record({ kind: 'correction', sessionId: 's1', text: 'Stop using emojis', timestamp: '2026-05-30T10:00:00.000Z' });
    await feedback.record({ kind: 'positive', sessionId: 's0', text: 'Old praise', timestamp: '2026-05-01T10:00:00.000Z' });
    const onRecord = await memory.save({
      content: 'Works in TypeScript',
      category: 'user-preferences',
      createdAt: '2026-05-01T00:00:00.000Z',
      lastSeenAt: '2026-05-01T00:00:00.000Z',
    });
    await memory.save({ content: 'Lisbon trip in May', category: 'episodes' });
    const model = scriptedModel(() => ({
      preferences: [
        {
          content: 'Prefers answers without emojis [durable]',
          topic: 'formatting',
          strength: 'strong',
          evidence: [2, 4],
          tags: ['style', '[durable]'],
        },
        { content: 'works in typescript', strength: 'strong', evidence: [4] },
        { content: 'Keep card PINs private', strength: 'strong', evidence: [5] },
      ],
    }));

    const report = await engine(model).run({ trigger: 'manual' });

    expect(outcome(report)).toMatchObject({ status: 'ok', itemsProcessed: 5, applied: 3, conflicts: 0 });
    expect(outcome(report).refusals).toEqual([
      'preference 3: evidence #5 ignored: not a user turn sent in this run',
      'preference 3 refused: "Keep card PINs private": a strong preference needs 1 distinct user turn(s) as evidence, got 0',
    ]);
    expect(outcome(report).notes).toEqual(
      expect.arrayContaining([
        '5 turn(s) read (seq 1..5) from 2 session(s)',
        '1 turn(s) marked [skip] not sent',
        '1 system, tool or empty turn(s) not sent',
        'conversation log cleared through seq 5',
      ]),
    );
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(textOf(model.doGenerateCalls[0]!.prompt.find((message) => message.role === 'system')!.content)).toBe(PREFERENCE_DIRECTIVE);
    const [data] = prompts(model);
    expect(data).toContain('#2 ');
    expect(data).toContain('[durable]');
    expect(data).toContain('Stop using emojis');
    expect(data).not.toContain('Old praise');
    expect(data).toContain('"Works in TypeScript"');
    expect(data).not.toContain('Lisbon');
    expect(data).not.toContain('SYSTEM-SECRET');
    expect(data).not.toContain('1234');

    const inferred = await memory.list({ category: 'user-preferences/inferred' });
    expect(inferred).toHaveLength(1);
    expect(inferred[0]).toMatchObject({
      content: 'Prefers answers without emojis',
      tags: ['inferred', 'style'],
      metadata: { source: 'inferred', strength: 'strong', topic: 'formatting' },
    });
    // SPEC B10: the user turns cited as evidence, by session, and the run.
    expect(inferred[0]!.lineage).toEqual({
      origin: {
        kind: 'session',
        at: NOW,
        runId: report.runId,
        pass: 'preference-inference',
        turns: [{ sessionId: 's1', fromSeq: 2, toSeq: 4 }],
      },
    });
    expect(await memory.get(onRecord.id)).toMatchObject({
      content: 'Works in TypeScript',
      reinforcementCount: 2,
      lastSeenAt: NOW,
      createdAt: '2026-05-01T00:00:00.000Z',
    });
    expect((await memory.get(onRecord.id))!.lineage).toBeUndefined();
    expect(await memory.list({ category: 'user-preferences' })).toHaveLength(2);
    expect(await logSeqs()).toEqual([]);
    expect(await cursor()).toEqual({ inferredThroughSeq: 5 });
  });

  it('keeps a turn appended while the model was thinking', async () => {
    await conversation();
    const model = scriptedModel(async () => {
      await say('s3', 'user', 'a turn that arrives during the dream');
      return { preferences: [] };
    });

    const report = await engine(model).run({ trigger: 'manual' });

    expect(outcome(report)).toMatchObject({ status: 'ok', applied: 1 });
    expect((await log.read()).map((turn) => [turn.seq, turn.content])).toEqual([[6, 'a turn that arrives during the dream']]);
  });

  it('clears no further than another log reader has read, and clears the rest later without sending it again', async () => {
    await conversation();
    const model = scriptedModel(() => ({ preferences: [] }));

    const first = await engine(model, [reader(2)]).run({ trigger: 'manual', passes: ['preference-inference'] });
    expect(outcome(first).notes).toEqual(
      expect.arrayContaining(['turns after seq 2 kept: another pass has not read them yet', 'conversation log cleared through seq 2']),
    );
    expect(await logSeqs()).toEqual([3, 4, 5]);
    expect(await cursor()).toEqual({ inferredThroughSeq: 5 });

    const second = await engine(model, [reader(5)]).run({ trigger: 'manual', passes: ['preference-inference'] });
    expect(outcome(second)).toMatchObject({ status: 'ok', applied: 1, itemsProcessed: 0 });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(await logSeqs()).toEqual([]);

    const third = await engine(model, [reader(5)]).run({ trigger: 'manual', passes: ['preference-inference'] });
    expect(outcome(third)).toMatchObject({ status: 'ok', applied: 0, notes: ['no new turns after seq 5'] });
  });

  it('clears the log even when the model reply stays invalid, records the pass as failed and saves nothing', async () => {
    await conversation();
    const model = scriptedModel(() => 'I would rather not answer in JSON.');

    const report = await engine(model).run({ trigger: 'manual' });

    const result = outcome(report);
    expect(result).toMatchObject({ status: 'failed', applied: 1 });
    expect(result.error).toMatch(/^MODEL_REPLY_INVALID: /);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(await logSeqs()).toEqual([]);
    expect(await memory.list()).toEqual([]);
    expect(await cursor()).toBeUndefined();
  });

  it('clears nothing when the run is aborted during the model call', async () => {
    await conversation();
    const controller = new AbortController();
    const model = scriptedModel(() => {
      controller.abort(new Error('A user turn started'));
      throw new Error('the call was aborted');
    });

    const report = await engine(model).run({ trigger: 'manual', signal: controller.signal });

    expect(outcome(report)).toMatchObject({ status: 'failed', applied: 0 });
    expect(outcome(report).error).toMatch(/^ABORTED: /);
    expect(report.interrupted).toBe('A user turn started');
    expect(await logSeqs()).toEqual([1, 2, 3, 4, 5]);
    expect(await memory.list()).toEqual([]);
  });

  it('is skipped without a model, and refuses invalid options', async () => {
    await conversation();
    const report = await engine(undefined).run({ trigger: 'manual' });
    expect(report.passes[0]).toMatchObject({ status: 'skipped', reason: 'needs a language model' });
    expect(await logSeqs()).toHaveLength(5);
    expect(() => new PreferenceInferencePass({ maxTurnsPerRun: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});

describe('PreferenceInferencePass plans', () => {
  function context(gateway: ScriptedGateway, horizon: number, signal = new AbortController().signal): PassContext {
    return {
      runId: 'run-test',
      services: {
        dataPath,
        clock,
        state: new FileDreamStateStore({ dataPath, clock }),
        logger: silentLogger,
        memory,
        conversationLog: log,
      },
      gateway,
      signal,
      conversationLogHorizon: async () => horizon,
      artifact: async () => undefined,
      now: () => clock.now(),
    };
  }

  async function plan(gateway: ScriptedGateway, horizon: number): Promise<PassPlan> {
    const planned = await new PreferenceInferencePass({ maxTurnsPerRun: 3 }).plan(context(gateway, horizon));
    if ('skipped' in planned) throw new Error(planned.skipped);
    return planned;
  }

  it('ends with a clear through the lower of what it read and the horizon, and leaves it out at 0', async () => {
    await conversation();
    const gateway = new ScriptedGateway(() => ({
      preferences: [{ content: 'Prefers answers without emojis', strength: 'strong', evidence: [2] }],
    }));

    const limited = await plan(gateway, Number.POSITIVE_INFINITY);
    expect(limited.operations.map((operation) => operation.op)).toEqual(['memory.save', 'conversation-log.clear']);
    expect(limited.operations.at(-1)).toMatchObject({ op: 'conversation-log.clear', throughSeq: 3 });
    expect(limited.notes).toContain('maxTurnsPerRun (3) reached: the next run continues after seq 3');

    expect((await plan(gateway, 1)).operations.at(-1)).toMatchObject({ op: 'conversation-log.clear', throughSeq: 1 });
    expect((await plan(gateway, 0)).operations.map((operation) => operation.op)).toEqual(['memory.save']);
  });

  it('plans only the clear, with the failure, when the model call fails', async () => {
    await conversation();
    const gateway = new ScriptedGateway(() => ({ preferences: 'not a list' }));
    const planned = await plan(gateway, Number.POSITIVE_INFINITY);
    expect(planned.operations).toEqual([{ op: 'conversation-log.clear', throughSeq: 3, reason: expect.any(String) }]);
    expect(planned.failure).toBeDefined();
    expect(planned.commit).toBeUndefined();
  });

  it('rethrows when aborted, planning no clear', async () => {
    await conversation();
    const controller = new AbortController();
    const gateway = new ScriptedGateway(() => {
      controller.abort();
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(new PreferenceInferencePass().plan(context(gateway, Number.POSITIVE_INFINITY, controller.signal))).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
