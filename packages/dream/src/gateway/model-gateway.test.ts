import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isReverieError, RecordingLogger, ReverieError } from '@reverie/core';
import { fenceUntrusted } from '@reverie/core/internal';
import type { GatewayRequest } from '../engine/dream-types';
import { correctionRequest, ModelGateway } from './model-gateway';

const planSchema = z.object({
  toDelete: z.array(z.string()),
  toSave: z.array(z.object({ content: z.string(), sourceIds: z.array(z.string()) })),
});
type Plan = z.infer<typeof planSchema>;

const BUILT_IN = 'You consolidate memory entries. Reply with one JSON object: {"toDelete": [...], "toSave": [...]}.';
const DATA = fenceUntrusted('memory entries', '[aaaaaaaaaaaa] likes tea\n[bbbbbbbbbbbb] likes tea');
const VALID: Plan = { toDelete: ['bbbbbbbbbbbb'], toSave: [{ content: 'Likes tea.', sourceIds: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'] }] };

type Reply = string | { text: string; input: number; output: number } | ((options: { abortSignal?: AbortSignal | undefined }) => string);

/** A mock model answering with the scripted replies in order; an Error in the script is thrown. */
function scriptedModel(replies: Array<Reply | Error>): MockLanguageModelV3 {
  let call = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const reply = replies[Math.min(call, replies.length - 1)]!;
      call += 1;
      if (reply instanceof Error) throw reply;
      const scripted =
        typeof reply === 'function'
          ? { text: reply(options), input: 10, output: 5 }
          : typeof reply === 'string'
            ? { text: reply, input: 10, output: 5 }
            : reply;
      return {
        content: [{ type: 'text', text: scripted.text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: scripted.input, noCache: scripted.input, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: scripted.output, text: scripted.output, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
}

/** The text of every part of one recorded prompt message. */
function textOf(message: { content: unknown }): string {
  if (typeof message.content === 'string') return message.content;
  return (message.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('');
}

let dataPath: string;
let artifacts: Map<string, string>;
let logger: RecordingLogger;

beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-gateway-'));
  artifacts = new Map();
  logger = new RecordingLogger();
});
afterEach(() => {
  rmSync(dataPath, { recursive: true, force: true });
});

function gateway(model: MockLanguageModelV3): ModelGateway {
  return new ModelGateway({
    model,
    dataPath,
    logger,
    maxRetries: 0,
    artifact: async (name, content) => {
      artifacts.set(name, content);
    },
  });
}

function request(overrides: Partial<GatewayRequest<Plan>> = {}): GatewayRequest<Plan> {
  return {
    pass: 'memory-consolidation',
    directiveFile: 'dream.md',
    builtInDirective: BUILT_IN,
    data: DATA,
    schema: planSchema,
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<ReverieError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ReverieError);
  return error as ReverieError;
}

describe('ModelGateway.ask', () => {
  it('parses a valid reply wrapped in a <think> block, prose and a code fence', async () => {
    const reply = `<think>Both say tea; {maybe merge}.</think>\nHere is the plan:\n\`\`\`json\n${JSON.stringify(VALID, null, 2)}\n\`\`\`\nDone.`;
    const model = scriptedModel([reply]);
    await expect(gateway(model).ask(request())).resolves.toEqual(VALID);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('sends the built-in directive as system prompt and the data as the user prompt when no directive file exists', async () => {
    const model = scriptedModel([JSON.stringify(VALID)]);
    await gateway(model).ask(request());
    const prompt = model.doGenerateCalls[0]!.prompt;
    expect(prompt).toHaveLength(2);
    expect(prompt[0]).toEqual({ role: 'system', content: BUILT_IN });
    expect(prompt[1]!.role).toBe('user');
    expect(textOf(prompt[1]!)).toBe(DATA);
  });

  it('uses the directive file in the data directory instead of the built-in text', async () => {
    const directive = '# House rules\nOnly merge entries with identical wording. Reply with the JSON object.\n';
    writeFileSync(join(dataPath, 'dream.md'), directive);
    const model = scriptedModel([JSON.stringify(VALID)]);
    await gateway(model).ask(request());
    expect(model.doGenerateCalls[0]!.prompt[0]).toEqual({ role: 'system', content: directive });
    expect(JSON.stringify(model.doGenerateCalls[0]!.prompt)).not.toContain('You consolidate memory entries');
  });

  it('reads the directive file once per gateway (one run): an edit during the run applies from the next run', async () => {
    writeFileSync(join(dataPath, 'dream.md'), 'first directive');
    const model = scriptedModel([JSON.stringify(VALID)]);
    const gw = gateway(model);
    await gw.ask(request());
    writeFileSync(join(dataPath, 'dream.md'), 'second directive');
    await gw.ask(request());
    await gateway(model).ask(request());
    expect(model.doGenerateCalls.map((call) => call.prompt[0])).toEqual([
      { role: 'system', content: 'first directive' },
      { role: 'system', content: 'first directive' },
      { role: 'system', content: 'second directive' },
    ]);
  });

  it('passes the abort signal to the model', async () => {
    const model = scriptedModel([JSON.stringify(VALID)]);
    const controller = new AbortController();
    await gateway(model).ask(request({ signal: controller.signal }));
    const signal = model.doGenerateCalls[0]!.abortSignal!;
    expect(signal.aborted).toBe(false);
    controller.abort();
    expect(signal.aborted).toBe(true);
  });

  it('asks once for a correction listing the problems and parses the corrected reply', async () => {
    const invalid = JSON.stringify({ toDelete: 'bbbbbbbbbbbb', toSave: [] });
    const model = scriptedModel([invalid, `Sorry. ${JSON.stringify(VALID)}`]);
    const gw = gateway(model);
    await expect(gw.ask(request())).resolves.toEqual(VALID);
    expect(model.doGenerateCalls).toHaveLength(2);

    const correction = model.doGenerateCalls[1]!.prompt;
    expect(correction.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(correction[0]).toEqual({ role: 'system', content: BUILT_IN });
    expect(textOf(correction[1]!)).toBe(DATA);
    expect(textOf(correction[2]!)).toBe(invalid);
    const ask = textOf(correction[3]!);
    expect(ask).toContain('toDelete');
    expect(ask).toMatch(/expected array/i);
    expect(ask).toMatch(/only the corrected JSON object/);
    expect(logger.records.some((r) => r.level === 'warn' && r.message.includes('memory-consolidation'))).toBe(true);

    expect([...artifacts.keys()].sort()).toEqual([
      'memory-consolidation.1.prompt.md',
      'memory-consolidation.1.reply.md',
      'memory-consolidation.2.prompt.md',
      'memory-consolidation.2.reply.md',
    ]);
    expect(artifacts.get('memory-consolidation.2.prompt.md')).toContain(ask);
  });

  it('says the reply held no JSON object when there was none', async () => {
    const model = scriptedModel(['I merged them in my head.', JSON.stringify(VALID)]);
    await expect(gateway(model).ask(request())).resolves.toEqual(VALID);
    expect(textOf(model.doGenerateCalls[1]!.prompt[3]!)).toContain('no JSON object');
  });

  it('throws MODEL_REPLY_INVALID after a second invalid reply, with both replies saved', async () => {
    const model = scriptedModel(['no json at all', JSON.stringify({ toDelete: [], toSave: [{ content: 1 }] })]);
    const error = await failure(gateway(model).ask(request()));
    expect(error.code).toBe('MODEL_REPLY_INVALID');
    expect(error.name).toBe('ReverieModelReplyError');
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(error.details).toMatchObject({
      pass: 'memory-consolidation',
      replyArtifact: 'memory-consolidation.2.reply.md',
      replyArtifacts: ['memory-consolidation.1.reply.md', 'memory-consolidation.2.reply.md'],
    });
    expect(String(error.details.problems)).toContain('toSave.0.content');
    expect(String(error.details.problems)).toContain('toSave.0.sourceIds');
    expect(artifacts.get('memory-consolidation.1.reply.md')).toBe('no json at all');
    expect(artifacts.get('memory-consolidation.2.reply.md')).toBe(JSON.stringify({ toDelete: [], toSave: [{ content: 1 }] }));
  });

  it('saves the system prompt and the user data in the prompt artifact', async () => {
    const model = scriptedModel([JSON.stringify(VALID)]);
    await gateway(model).ask(request());
    const prompt = artifacts.get('memory-consolidation.1.prompt.md')!;
    expect(prompt).toContain(BUILT_IN);
    expect(prompt).toContain(DATA);
    expect(artifacts.get('memory-consolidation.1.reply.md')).toBe(JSON.stringify(VALID));
  });

  it('writes its artifacts while the call goes on; settle() waits for every one of them', async () => {
    const finish: Array<() => void> = [];
    const written: string[] = [];
    const gw = new ModelGateway({
      model: scriptedModel([JSON.stringify(VALID)]),
      dataPath,
      logger,
      maxRetries: 0,
      artifact: (name) =>
        new Promise<void>((resolve) => {
          finish.push(() => {
            written.push(name);
            resolve();
          });
        }),
    });
    await expect(gw.ask(request())).resolves.toEqual(VALID);
    expect(finish).toHaveLength(2);
    let settled = false;
    const settling = gw.settle().then(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    for (const done of finish) done();
    await settling;
    expect(written.sort()).toEqual(['memory-consolidation.1.prompt.md', 'memory-consolidation.1.reply.md']);
  });

  it('lets at most four artifacts be written at once: a model faster than the disk waits for it', async () => {
    const finish: Array<() => void> = [];
    const model = scriptedModel([JSON.stringify(VALID)]);
    const gw = new ModelGateway({
      model,
      dataPath,
      logger,
      maxRetries: 0,
      artifact: () => new Promise<void>((resolve) => finish.push(resolve)),
    });
    await gw.ask(request());
    await gw.ask(request());
    let third = false;
    const asking = gw.ask(request()).then(() => {
      third = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(finish).toHaveLength(4);
    finish.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(third).toBe(false);
    finish.shift()!();
    await asking;
    for (const done of finish) done();
    await gw.settle();
  });

  it('settle() throws the first artifact write that failed, once; the call itself went on', async () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    let writes = 0;
    const gw = new ModelGateway({
      model: scriptedModel([JSON.stringify(VALID)]),
      dataPath,
      logger,
      maxRetries: 0,
      artifact: async () => {
        writes += 1;
        if (writes <= 2) throw full;
      },
    });
    await expect(gw.ask(request())).resolves.toEqual(VALID);
    await expect(gw.settle()).rejects.toBe(full);
    await expect(gw.settle()).resolves.toBeUndefined();
    await gw.ask(request());
    await expect(gw.settle()).resolves.toBeUndefined();
  });

  it('numbers artifacts per pass across asks', async () => {
    const model = scriptedModel([JSON.stringify(VALID)]);
    const gw = gateway(model);
    await gw.ask(request());
    await gw.ask(request());
    await gw.ask(request({ pass: 'skill-gap', directiveFile: 'skill-gap.md' }));
    expect([...artifacts.keys()].filter((name) => name.endsWith('.reply.md')).sort()).toEqual([
      'memory-consolidation.1.reply.md',
      'memory-consolidation.2.reply.md',
      'skill-gap.1.reply.md',
    ]);
  });

  it('sums token usage over every call, corrections included', async () => {
    const model = scriptedModel([
      { text: 'not json', input: 100, output: 7 },
      { text: JSON.stringify(VALID), input: 130, output: 40 },
      { text: JSON.stringify(VALID), input: 90, output: 30 },
    ]);
    const gw = gateway(model);
    expect(gw.usage).toEqual({ inputTokens: 0, outputTokens: 0, calls: 0 });
    await gw.ask(request());
    expect(gw.usage).toEqual({ inputTokens: 230, outputTokens: 47, calls: 2 });
    await gw.ask(request());
    expect(gw.usage).toEqual({ inputTokens: 320, outputTokens: 77, calls: 3 });
  });

  it('throws ABORTED without calling the model when the signal is already aborted', async () => {
    const model = scriptedModel([JSON.stringify(VALID)]);
    const controller = new AbortController();
    controller.abort();
    const error = await failure(gateway(model).ask(request({ signal: controller.signal })));
    expect(error.code).toBe('ABORTED');
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('throws ABORTED, and sends no correction, when the signal aborts during a call', async () => {
    const controller = new AbortController();
    const model = scriptedModel([
      () => {
        controller.abort();
        return 'not json';
      },
      JSON.stringify(VALID),
    ]);
    const error = await failure(gateway(model).ask(request({ signal: controller.signal })));
    expect(error.code).toBe('ABORTED');
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('turns a model call rejected by the abort into ABORTED, not retried', async () => {
    const controller = new AbortController();
    const abortError = new DOMException('The operation was aborted.', 'AbortError');
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        controller.abort();
        throw abortError;
      },
    });
    const gw = new ModelGateway({ model, dataPath, logger, artifact: async () => undefined, maxRetries: 3 });
    const error = await failure(gw.ask(request({ signal: controller.signal })));
    expect(error.code).toBe('ABORTED');
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('reports other model failures as MODEL_UNAVAILABLE with the cause', async () => {
    const boom = new Error('connection refused');
    const model = scriptedModel([boom]);
    const error = await failure(gateway(model).ask(request()));
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain('connection refused');
    expect(error.cause).toBe(boom);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('does not read a directive file outside the data directory', async () => {
    const model = scriptedModel([JSON.stringify(VALID)]);
    const error = await failure(gateway(model).ask(request({ directiveFile: '../dream.md' })));
    expect(isReverieError(error, 'INVALID_OPTIONS')).toBe(true);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('rejects a negative maxRetries', () => {
    expect(
      () => new ModelGateway({ model: scriptedModel(['{}']), dataPath, logger, artifact: async () => undefined, maxRetries: -1 }),
    ).toThrow(/maxRetries/);
  });
});

describe('correctionRequest', () => {
  it('names the problems and asks for the JSON object alone', () => {
    expect(correctionRequest('toDelete: Invalid input: expected array, received string')).toMatchInlineSnapshot(`
      "Your previous reply could not be used: toDelete: Invalid input: expected array, received string.
      Reply again with only the corrected JSON object in the format the instructions describe, with nothing before or after it."
    `);
  });
});

describe('ModelGateway: bounded replies (SPEC B11)', () => {
  it('refuses a reply over maxReplyChars before parsing it, keeps only the limit on disk, and asks once for a shorter one', async () => {
    const huge = `${'{'.repeat(150_000)}${JSON.stringify(VALID)}`;
    const model = scriptedModel([huge, JSON.stringify(VALID)]);
    const gw = gateway(model);
    await expect(gw.ask(request())).resolves.toEqual(VALID);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(textOf(model.doGenerateCalls[1]!.prompt.at(-1)!)).toContain('more than the 100000 allowed');
    expect(gw.refusals).toHaveLength(1);
    expect(gw.refusals[0]).toMatch(
      /memory-consolidation: reply memory-consolidation\.1\.reply\.md refused: the reply is 150\d+ characters long/,
    );
    expect(artifacts.get('memory-consolidation.1.reply.md')!.length).toBeLessThan(100_200);
  });

  it('fails the pass when the correction is oversized too, with both refusals recorded', async () => {
    const model = scriptedModel(['x'.repeat(200_000)]);
    const gw = gateway(model);
    const error = await failure(gw.ask(request()));
    expect(isReverieError(error, 'MODEL_REPLY_INVALID')).toBe(true);
    expect(gw.refusals).toHaveLength(2);
  });

  it('passes maxOutputTokens to the model and tells it when its reply was cut off', async () => {
    let call = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        call += 1;
        const cut = call === 1;
        return {
          content: [{ type: 'text', text: cut ? '{"toDelete": [], "toSave": [{"content": "Likes' : JSON.stringify(VALID) }],
          finishReason: { unified: cut ? 'length' : 'stop', raw: cut ? 'length' : 'stop' },
          usage: {
            inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 5, text: 5, reasoning: 0 },
          },
          warnings: [],
        };
      },
    });
    await expect(gateway(model).ask(request({ maxOutputTokens: 1234 }))).resolves.toEqual(VALID);
    expect(model.doGenerateCalls[0]!.maxOutputTokens).toBe(1234);
    expect(textOf(model.doGenerateCalls[1]!.prompt.at(-1)!)).toContain('cut off at the output limit');
  });

  it('rejects an absurd maxReplyChars', () => {
    expect(() => new ModelGateway({ model: scriptedModel([]), dataPath, logger, artifact: async () => {}, maxReplyChars: 10 })).toThrow(
      /maxReplyChars/,
    );
  });
});
