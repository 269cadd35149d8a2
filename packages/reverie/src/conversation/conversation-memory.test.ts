import { describe, expect, it } from 'vitest';
import {
  type ConversationTurnDraft,
  type IConversationLog,
  InMemoryConversationLog,
  isReverieError,
  type LoggedTurn,
  ManualClock,
  RecordingLogger,
  ReverieError,
} from '@reverie/core';
import { ConversationMemory } from './conversation-memory';

const clock = () => new ManualClock('2026-03-01T09:00:00.000Z');

/** A conversation log whose appends wait until `release()`, and fail while `failing` is set. */
class GatedLog implements IConversationLog {
  readonly inner = new InMemoryConversationLog({ clock: clock() });
  failing: unknown;
  private gate: Promise<void> = Promise.resolve();
  private open: () => void = () => undefined;
  calls = 0;

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open();
  }

  async append(turn: ConversationTurnDraft): Promise<LoggedTurn> {
    this.calls += 1;
    const failing = this.failing;
    await this.gate;
    if (failing !== undefined) throw failing;
    return this.inner.append(turn);
  }

  read = (...args: Parameters<IConversationLog['read']>) => this.inner.read(...args);
  clear = (...args: Parameters<IConversationLog['clear']>) => this.inner.clear(...args);
  close = () => this.inner.close();
}

const setup = () => {
  const log = new GatedLog();
  const logger = new RecordingLogger();
  return { log, logger, conversation: new ConversationMemory({ clock: clock(), logger, log }) };
};

describe('ConversationMemory and the conversation log', () => {
  it('records a turn without waiting for the log; flush() waits until every recorded turn is in it', async () => {
    const { log, conversation } = setup();
    log.hold();
    conversation.record('s1', 'user', 'first');
    conversation.record('s1', 'assistant', 'second');
    conversation.record('s2', 'user', 'third');
    // Replayable at once, though nothing is in the log yet.
    expect(conversation.recent('s1', 5).map((turn) => turn.content)).toEqual(['first', 'second']);
    expect(await log.read()).toEqual([]);

    let flushed = false;
    const flushing = conversation.flush().then(() => (flushed = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(flushed).toBe(false);
    log.release();
    await flushing;
    expect((await log.read()).map((turn) => turn.content)).toEqual(['first', 'second', 'third']);
  });

  it('starts the appends in the order the turns were recorded', async () => {
    const { log, conversation } = setup();
    for (let i = 0; i < 20; i++) conversation.record(`s${i % 3}`, i % 2 ? 'assistant' : 'user', `turn ${i}`);
    await conversation.flush();
    expect((await log.read()).map((turn) => turn.content)).toEqual(Array.from({ length: 20 }, (_, i) => `turn ${i}`));
  });

  it('does not send ephemeral turns to the log', async () => {
    const { log, conversation } = setup();
    conversation.record('dream-1', 'assistant', 'dream output', { ephemeral: true });
    await conversation.flush();
    expect(log.calls).toBe(0);
    expect(conversation.size('dream-1')).toBe(1);
  });

  it("logs a failed append at once and reports the failures once, with the first failure's code and details", async () => {
    const { log, logger, conversation } = setup();
    log.failing = new ReverieError('NO_SPACE', 'No space left on the device for /data/logs/conversation.jsonl.', {
      details: { path: '/data/logs/conversation.jsonl' },
    });
    conversation.record('s1', 'user', 'lost one');
    conversation.record('s2', 'user', 'lost two');
    await conversation.settled();
    const warnings = logger.records.filter((record) => record.level === 'warn');
    expect(warnings.map((record) => record.message.slice(0, 52))).toEqual([
      'A user turn of session s1 was not appended to the co',
      'A user turn of session s2 was not appended to the co',
    ]);
    expect(warnings[0]!.message).toContain('No space left');
    expect(warnings[0]!.context).toMatchObject({ sessionId: 's1', role: 'user', code: 'NO_SPACE' });

    log.failing = undefined;
    conversation.record('s1', 'user', 'kept');
    const error = await conversation.flush().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isReverieError(error, 'NO_SPACE')).toBe(true);
    expect((error as ReverieError).message).toMatch(
      /^2 turn\(s\) could not be appended to the conversation log \(the first, of session s1: No space left/,
    );
    expect((error as ReverieError).details).toMatchObject({ path: '/data/logs/conversation.jsonl', failed: 2, sessionIds: ['s1', 's2'] });
    // Reported once; the turns after the failure were appended.
    await expect(conversation.flush()).resolves.toBeUndefined();
    expect((await log.read()).map((turn) => turn.content)).toEqual(['kept']);
    // Replay does not depend on the log.
    expect(conversation.recent('s1', 5).map((turn) => turn.content)).toEqual(['lost one', 'kept']);
  });

  it('reports a plain error from a custom store as IO_ERROR of that store (not a fault of Reverie), and a store that throws synchronously never escapes record()', async () => {
    const logger = new RecordingLogger();
    const throwing: IConversationLog = {
      append: () => {
        throw new Error('the database is down');
      },
      read: async () => [],
      clear: async () => 0,
      close: async () => undefined,
    };
    const conversation = new ConversationMemory({ clock: clock(), logger, log: throwing });
    expect(() => conversation.record('s1', 'user', 'hello')).not.toThrow();
    const error = await conversation.flush().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isReverieError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toContain('the database is down');
    expect((error as Error).message).not.toMatch(/Check the disk, the space left/);
  });
});
