import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type IConversationLog, type IEmbedder, InMemoryConversationLog } from '@reverie/core';
import type { FileMemoryStore } from '@reverie/file-store';
import { createReverie, type Reverie, withReverie } from 'reverie';
import { scriptedModel } from './scripted-model';

// Failures that speak: with no logger configured, every background failure reaches
// stderr as a warning that names what was lost and what to do; `logger: 'silent'` quiets it.
let dataPath: string;
let reverie: Reverie | undefined;
let stderr: string[];
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-failures-'));
  stderr = [];
  const capture = (...args: unknown[]) => void stderr.push(args.map(String).join(' '));
  vi.spyOn(console, 'warn').mockImplementation(capture);
  vi.spyOn(console, 'error').mockImplementation(capture);
});
afterEach(async () => {
  await reverie?.close().catch(() => undefined);
  reverie = undefined;
  vi.restoreAllMocks();
  rmSync(dataPath, { recursive: true, force: true });
});

/** A conversation log on a read-only file system: every append fails with EROFS. */
function readOnlyLog(): IConversationLog {
  const log = new InMemoryConversationLog();
  return {
    append: async () => {
      throw Object.assign(new Error("EROFS: read-only file system, open '/data/logs/conversation.jsonl'"), {
        code: 'EROFS',
        syscall: 'open',
        path: '/data/logs/conversation.jsonl',
      });
    },
    read: (options) => log.read(options),
    clear: (options) => log.clear(options),
    close: () => log.close(),
  };
}

describe('background failures, with the default logger', () => {
  it('a turn the conversation log refused: a warning on stderr saying what is lost and what to do', async () => {
    reverie = createReverie({ dataPath }).withMemory().withConversationLog({ store: readOnlyLog() }).build();
    const model = withReverie(scriptedModel(['Hello.']), { reverie, sessionId: 's1' });
    await generateText({ model, prompt: 'Hi there' });
    await reverie.conversation.settled();
    const warning = stderr.find((line) => line.includes('user turn of session s1'));
    expect(warning).toMatch(/^\[reverie\] warning: A user turn of session s1 was not appended to the conversation log/);
    expect(warning).toContain('the dream cycle will not learn from it');
    expect(warning).toContain('point dataPath at a writable directory');
    expect(warning).toContain('"code":"READ_ONLY"');
    await expect(reverie.conversation.flush()).rejects.toMatchObject({ code: 'READ_ONLY' });
  });

  it('a note whose expansion the review refused: a warning that the note is kept, and how to stop expansions', async () => {
    const model = scriptedModel(['{"entries": [{"content": "The user lives in Paris and owns a boat."}]}']);
    reverie = createReverie({ dataPath, model }).withMemory().build();
    const tools = reverie.tools.memory();
    await tools.save_memory.execute!({ content: 'The user lives in Lyon' }, { toolCallId: 't1', messages: [] });
    await reverie.tools.idle();
    const warning = stderr.find((line) => line.includes('save_memory'));
    expect(warning).toMatch(/^\[reverie\] warning: A note saved with save_memory was not expanded/);
    expect(warning).toContain('the note is kept and recalled as saved');
    expect(warning).toContain('withMemory({ expansion: { enabled: false } })');
    expect((await reverie.memory!.list()).map((entry) => entry.content)).toEqual(['The user lives in Lyon']);
  });

  it('an embedding that failed: a warning that recall falls back to BM25, and what to check', async () => {
    const embedder: IEmbedder = {
      modelId: 'down',
      embed: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:11434');
      },
    };
    reverie = createReverie({ dataPath, embedder }).withMemory().build();
    await reverie.memory!.save({ content: 'The user is allergic to peanuts' });
    await (reverie.memory!.store as FileMemoryStore).flushEmbeddings();
    const warning = stderr.find((line) => line.includes('Embedding failed'))!;
    expect(warning).toContain('recall ranks them by BM25 alone');
    expect(warning).toContain('Check the embedding model');
    expect(warning).toContain('ECONNREFUSED');
  });

  it('an extraction whose model failed: a warning that the facts of those turns were not saved, and what to do', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        if (JSON.stringify(prompt).includes('You keep the long-term memory')) throw new Error('429 Too Many Requests');
        return {
          content: [{ type: 'text', text: 'Hummus.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
          warnings: [],
        };
      },
    });
    reverie = createReverie({ dataPath, model }).withMemory({ extract: 'turn' }).build();
    await generateText({ model: withReverie(model, { reverie, sessionId: 's1' }), prompt: 'I am allergic to peanuts; a snack idea?' });
    await reverie.idle();
    const warning = stderr.find((line) => line.includes('Fact extraction'));
    expect(warning).toMatch(
      /^\[reverie\] warning: Fact extraction for session s1 failed, so no fact of its last 2 turn\(s\) was saved \(the model call failed: 429 Too Many Requests\)/,
    );
    expect(warning).toContain('The turns stay in the conversation log for the dream cycle');
    expect(warning).toContain('withMemory({ extract })');
  });

  it("logger: 'silent' prints nothing, and a custom logger gets the same warnings", async () => {
    reverie = createReverie({ dataPath, logger: 'silent' }).withMemory().withConversationLog({ store: readOnlyLog() }).build();
    await reverie.context.forTurn({ sessionId: 's1', message: 'Hi there' });
    await reverie.conversation.settled();
    expect(stderr).toEqual([]);
    await reverie.close();

    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (message: string) => void warnings.push(message), error() {} };
    reverie = createReverie({ dataPath, logger }).withMemory().withConversationLog({ store: readOnlyLog() }).build();
    await reverie.context.forTurn({ sessionId: 's1', message: 'Hi there' });
    await reverie.conversation.settled();
    expect(warnings).toEqual([expect.stringMatching(/^A user turn of session s1 was not appended/)]);
    expect(stderr).toEqual([]);
  });

  it('refuses a logger that is neither an ILogger nor "stderr" / "silent"', () => {
    expect(() => createReverie({ dataPath, logger: 'loud' as never }).build()).toThrow(/createReverie\.logger: must be an ILogger/);
  });
});
