import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@reverie/core';
import { createReverie, type Reverie, withReverie } from 'reverie';
import { textReply } from './scripted-model';

// Facts taken from turns (withMemory({ extract })), end to end: a recorded extraction reply
// (src/extraction/__fixtures__) answers the prompt the runtime sends for the same exchange.
type Prompt = Parameters<MockLanguageModelV3['doGenerate']>[0]['prompt'];
const fixtures = fileURLToPath(new URL('../src/extraction/__fixtures__/', import.meta.url));
const fixture = (name: string) => ({
  exchange: JSON.parse(readFileSync(join(fixtures, `${name}.exchange.json`), 'utf8')) as {
    turns: Array<{ role: string; content: string; timestamp: string }>;
  },
  prompt: readFileSync(join(fixtures, `${name}.prompt.txt`), 'utf8'),
  reply: readFileSync(join(fixtures, `${name}.reply.txt`), 'utf8'),
});
const text = textReply;
const isExtraction = (prompt: Prompt) =>
  prompt.some((message) => message.role === 'system' && message.content.startsWith('You keep the long-term memory of an AI assistant.'));
/** The prompt as the fixture files write it. */
const asPromptFile = (prompt: Prompt) => {
  const system = prompt.find((message) => message.role === 'system')!.content as string;
  const user = prompt.find((message) => message.role === 'user')!;
  const body = user.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return `=== system ===\n${system}\n=== prompt ===\n${body}\n`;
};

/** The agent's model: chat replies in order, and the extraction reply to extraction calls (after `gate`). */
function agentModel(chat: string[], extractionReply: string, gate: Promise<void> = Promise.resolve()) {
  const extractions: Prompt[] = [];
  let turn = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      if (isExtraction(prompt)) {
        extractions.push(prompt);
        await gate;
        return text(extractionReply);
      }
      return text(chat[Math.min(turn++, chat.length - 1)]!);
    },
  });
  return { model, extractions };
}

let dataPath: string;
let reverie: Reverie;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-extraction-'));
});
afterEach(async () => {
  await reverie?.close();
  rmSync(dataPath, { recursive: true, force: true });
});

describe("withMemory({ extract: 'turn' })", () => {
  it('sends the recorded prompt after the exchange, and saves the reviewed facts with their session and turns', async () => {
    const { exchange, prompt, reply } = fixture('peanut-snack');
    const [user, assistant] = exchange.turns;
    const { model, extractions } = agentModel([assistant!.content], reply);
    reverie = createReverie({ dataPath, model, clock: new ManualClock(user!.timestamp), logger: 'silent' })
      .withMemory({ extract: 'turn' })
      .withConversationLog()
      .build();

    const result = await generateText({ model: withReverie(model, { reverie, sessionId: 'flight' }), prompt: user!.content });
    expect(result.text).toBe(assistant!.content);
    await reverie.idle();

    expect(extractions).toHaveLength(1);
    expect(asPromptFile(extractions[0]!)).toBe(prompt);
    const saved = await reverie.memory!.list();
    expect(saved.map((entry) => [entry.content, entry.category]).sort()).toEqual([
      ['The user has a peanut allergy.', 'user-preferences/food'],
      ['The user is vegetarian.', 'user-preferences/food'],
    ]);
    for (const entry of saved) {
      expect(entry.tags).toContain('extracted');
      expect(entry.metadata).toMatchObject({ source: 'extracted' });
      expect(entry.lineage?.origin).toMatchObject({
        kind: 'session',
        sessionId: 'flight',
        pass: 'fact-extraction',
        turns: [{ sessionId: 'flight', fromSeq: 1, toSeq: 2 }],
      });
    }
    // The extraction is a background call: it never lands in the conversation log.
    await reverie.conversation.flush();
    expect((await reverie.conversationLog!.read()).map((turn) => turn.role)).toEqual(['user', 'assistant']);
  });

  it('never holds up the turn: the reply is back while the extraction still waits for the model', async () => {
    const { exchange, reply } = fixture('peanut-snack');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { model, extractions } = agentModel(['Hummus and carrots.'], reply, gate);
    reverie = createReverie({ dataPath, model, logger: 'silent' }).withMemory({ extract: 'turn' }).build();
    const result = await generateText({ model: withReverie(model, { reverie, sessionId: 's1' }), prompt: exchange.turns[0]!.content });
    expect(result.text).toBe('Hummus and carrots.');
    await expect.poll(() => extractions.length).toBe(1);
    expect(await reverie.memory!.list()).toEqual([]);
    release();
    await reverie.idle();
    expect(await reverie.memory!.list()).toHaveLength(2);
  });

  it('does not save a fact memory holds already', async () => {
    const { exchange, reply } = fixture('peanut-snack');
    const { model } = agentModel(['Hummus and carrots.'], reply);
    reverie = createReverie({ dataPath, model, logger: 'silent' }).withMemory({ extract: 'turn' }).build();
    const known = await reverie.memory!.save({ content: 'The user is allergic to peanuts', category: 'health' });
    await generateText({ model: withReverie(model, { reverie, sessionId: 's1' }), prompt: exchange.turns[0]!.content });
    await reverie.idle();
    expect((await reverie.memory!.list()).map((entry) => entry.content).sort()).toEqual([
      'The user is allergic to peanuts',
      'The user is vegetarian.',
    ]);
    expect((await reverie.memory!.get(known.id))?.content).toBe('The user is allergic to peanuts');
  });

  it('saves nothing from the recorded attempt to plant an instruction but the facts the user stated', async () => {
    const { exchange, reply } = fixture('injection-attempt');
    const { model } = agentModel([exchange.turns[1]!.content], reply);
    reverie = createReverie({ dataPath, model, logger: 'silent' }).withMemory({ extract: 'turn' }).build();
    await generateText({ model: withReverie(model, { reverie, sessionId: 's1' }), prompt: exchange.turns[0]!.content });
    await reverie.idle();
    const contents = (await reverie.memory!.list()).map((entry) => entry.content).sort();
    expect(contents).toEqual(["The user's manager is Ingrid Solberg.", "The user's team ships the billing service every Thursday."]);
    expect(contents.join(' ')).not.toMatch(/password|hunter2|ignore/i);
  });

  it('takes nothing from patrol sessions', async () => {
    const { reply } = fixture('peanut-snack');
    const { model, extractions } = agentModel(['ok'], reply);
    reverie = createReverie({ dataPath, model, logger: 'silent' }).withMemory({ extract: 'turn' }).withWorkingMemory().build();
    await reverie.context.forTurn({
      sessionId: 'patrol-1',
      message: 'I am allergic to peanuts',
      kind: 'patrol',
      namespace: 'patrol/heartbeat',
    });
    await reverie.context.recordReply('patrol-1', 'ok');
    await reverie.idle();
    expect(extractions).toEqual([]);
  });
});

describe("withMemory({ extract: 'session-end' })", () => {
  it('extracts once when the session ends, from all its turns, with the recorded reply', async () => {
    const { exchange, prompt, reply } = fixture('staging-upgrade-session');
    const users = exchange.turns.filter((turn) => turn.role === 'user');
    const assistants = exchange.turns.filter((turn) => turn.role === 'assistant');
    const { model, extractions } = agentModel(
      assistants.map((turn) => turn.content),
      reply,
    );
    const clock = new ManualClock(users[0]!.timestamp);
    reverie = createReverie({ dataPath, model, clock, logger: 'silent' })
      .withMemory({ extract: 'session-end' })
      .withConversationLog()
      .build();
    const wrapped = withReverie(model, { reverie, sessionId: 'upgrade' });
    for (const [index, user] of users.entries()) {
      clock.set(user.timestamp);
      const messages = exchange.turns
        .slice(0, index * 2 + 1)
        .map((turn) => ({ role: turn.role as 'user' | 'assistant', content: turn.content }));
      await generateText({ model: wrapped, messages });
      clock.set(assistants[index]!.timestamp);
    }
    await reverie.idle();
    expect(extractions).toEqual([]);

    await reverie.endSession('upgrade');
    await reverie.idle();
    expect(extractions).toHaveLength(1);
    expect(asPromptFile(extractions[0]!)).toBe(prompt);
    const saved = await reverie.memory!.list();
    expect(saved.map((entry) => entry.content).sort()).toEqual([
      'The user hates long checklists and prefers them kept short.',
      "The user's staging database moved from Postgres 14 to Postgres 16.",
      "The user's team deploys with ArgoCD now, not Jenkins.",
    ]);
    for (const entry of saved) expect(entry.lineage?.origin?.turns).toEqual([{ sessionId: 'upgrade', fromSeq: 1, toSeq: 6 }]);
  });

  it('extracts when a session ends by being idle', async () => {
    const { exchange, reply } = fixture('peanut-snack');
    const { model, extractions } = agentModel(['Hummus.'], reply);
    const clock = new ManualClock('2026-03-02T08:14:05.000Z');
    reverie = createReverie({ dataPath, model, clock, logger: 'silent', context: { sessionIdleTimeout: '30m' } })
      .withMemory({ extract: 'session-end' })
      .build();
    await generateText({ model: withReverie(model, { reverie, sessionId: 'snack' }), prompt: exchange.turns[0]!.content });
    clock.advance(31 * 60_000);
    expect(reverie.context.expireIdle()).toEqual(['snack']);
    await reverie.idle();
    expect(extractions).toHaveLength(1);
    expect(await reverie.memory!.list()).toHaveLength(2);
  });
});

describe('withMemory({ extract }) options', () => {
  it('needs a model, and one of the two modes', () => {
    expect(() => createReverie({ dataPath }).withMemory({ extract: 'turn' }).build()).toThrow(
      /withMemory\.extract: .*needs a language model/,
    );
    expect(() =>
      createReverie({ dataPath, model: new MockLanguageModelV3() })
        .withMemory({ extract: 'always' as never })
        .build(),
    ).toThrow(/withMemory\.extract/);
    reverie = createReverie({ dataPath, model: new MockLanguageModelV3() }).withMemory().build();
  });
});
