import { describe, expect, it } from 'vitest';
import type { IConversationLog } from '../interfaces/conversation-log';
import type { ConversationTurnDraft } from '../schemas/conversation-turn';
import { type ConformanceOptions, HOUR, MINUTE, type StoreFactory, useStoreHarness } from './conformance-context';
import { NAME_WORDS, storedOrRefused, UNSTORABLE_FRAGMENTS, userTexts } from './user-text-corpus';

/**
 * The behaviour every `IConversationLog` must show (SPEC M10), as a vitest suite. Call it from a
 * test file of your log:
 *
 * ```ts
 * describeConversationLogConformance('MyConversationLog', ({ clock, scope }) => new MyConversationLog({ clock, scope }), { persistent: true });
 * ```
 */
export function describeConversationLogConformance(
  name: string,
  factory: StoreFactory<IConversationLog>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} — IConversationLog conformance`, () => {
    const harness = useStoreHarness(factory, options);
    const iso = (offsetMs: number) => new Date(harness.clock.now().getTime() + offsetMs).toISOString();
    const say = (log: IConversationLog, content: string, sessionId = 'session-1', role: ConversationTurnDraft['role'] = 'user') =>
      log.append({ sessionId, role, content });

    describe('append and read', () => {
      it('assigns seq 1, 2, 3… and stamps the timestamp from the clock', async () => {
        const log = await harness.open();
        const now = harness.clock.now().getTime();
        const first = await say(log, 'Hello, can you check my calendar?');
        harness.clock.advance(MINUTE);
        const second = await say(log, 'You have two meetings today.', 'session-1', 'assistant');
        expect(first).toMatchObject({ seq: 1, sessionId: 'session-1', role: 'user', content: 'Hello, can you check my calendar?' });
        expect(second).toMatchObject({ seq: 2, role: 'assistant', content: 'You have two meetings today.' });
        expect(new Date(first.timestamp).getTime()).toBe(now);
        expect(new Date(second.timestamp).getTime()).toBe(now + MINUTE);
        expect(await log.read()).toEqual([first, second]);
      });

      it('keeps a timestamp the caller gives', async () => {
        const log = await harness.open();
        const turn = await log.append({
          sessionId: 's',
          role: 'system',
          content: 'You are helpful.',
          timestamp: '2026-02-01T07:00:00.000Z',
        });
        expect(turn).toEqual({
          seq: 1,
          sessionId: 's',
          role: 'system',
          content: 'You are helpful.',
          timestamp: '2026-02-01T07:00:00.000Z',
        });
      });

      it('reads in append order, not timestamp order', async () => {
        const log = await harness.open();
        await log.append({ sessionId: 's', role: 'user', content: 'late', timestamp: iso(HOUR) });
        await log.append({ sessionId: 's', role: 'user', content: 'early', timestamp: iso(-HOUR) });
        await log.append({ sessionId: 's', role: 'tool', content: 'now' });
        expect((await log.read()).map((t) => [t.seq, t.content])).toEqual([
          [1, 'late'],
          [2, 'early'],
          [3, 'now'],
        ]);
      });

      it('accepts every role and empty content', async () => {
        const log = await harness.open();
        for (const role of ['user', 'assistant', 'system', 'tool'] as const) await log.append({ sessionId: 's', role, content: '' });
        expect((await log.read()).map((t) => t.role)).toEqual(['user', 'assistant', 'system', 'tool']);
      });

      it('hands out copies: changing a returned turn changes nothing stored', async () => {
        const log = await harness.open();
        const turn = await say(log, 'original');
        turn.content = 'mutated';
        turn.seq = 99;
        const read = await log.read();
        read[0]!.content = 'mutated';
        expect(await log.read()).toMatchObject([{ seq: 1, content: 'original' }]);
      });
    });

    describe('read filters', () => {
      it('reads only turns after a seq', async () => {
        const log = await harness.open();
        for (let i = 1; i <= 5; i++) await say(log, `turn ${i}`);
        expect((await log.read({ afterSeq: 3 })).map((t) => t.seq)).toEqual([4, 5]);
        expect((await log.read({ afterSeq: 0 })).map((t) => t.seq)).toEqual([1, 2, 3, 4, 5]);
        expect(await log.read({ afterSeq: 5 })).toEqual([]);
      });

      it('filters by session', async () => {
        const log = await harness.open();
        await say(log, 'a1', 'alpha');
        await say(log, 'b1', 'beta');
        await say(log, 'a2', 'alpha');
        expect((await log.read({ sessionId: 'alpha' })).map((t) => [t.seq, t.content])).toEqual([
          [1, 'a1'],
          [3, 'a2'],
        ]);
        expect(await log.read({ sessionId: 'gamma' })).toEqual([]);
      });

      it('filters by since (inclusive) and until (exclusive)', async () => {
        const log = await harness.open();
        for (const [content, offset] of [
          ['early', 0],
          ['edge', HOUR],
          ['middle', HOUR + MINUTE],
          ['late', 2 * HOUR],
        ] as const) {
          await log.append({ sessionId: 's', role: 'user', content, timestamp: iso(offset) });
        }
        expect((await log.read({ since: iso(HOUR) })).map((t) => t.content)).toEqual(['edge', 'middle', 'late']);
        expect((await log.read({ until: iso(HOUR) })).map((t) => t.content)).toEqual(['early']);
        expect((await log.read({ since: iso(HOUR), until: iso(2 * HOUR) })).map((t) => t.content)).toEqual(['edge', 'middle']);
      });

      it('accepts Dates for timestamp, since and until, and returns ISO strings', async () => {
        const log = await harness.open();
        const at = new Date(iso(HOUR));
        const logged = await log.append({ sessionId: 's', role: 'user', content: 'dated', timestamp: at });
        expect(logged.timestamp).toBe(at.toISOString());
        expect((await log.read({ since: at, until: new Date(iso(2 * HOUR)) })).map((t) => t.content)).toEqual(['dated']);
        expect(await log.read({ until: at })).toEqual([]);
        await expect(log.read({ since: new Date(Number.NaN) })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      });

      it('returns at most limit turns, the oldest first, after the other filters', async () => {
        const log = await harness.open();
        for (let i = 1; i <= 6; i++) await say(log, `turn ${i}`, i % 2 === 0 ? 'even' : 'odd');
        expect((await log.read({ limit: 2 })).map((t) => t.seq)).toEqual([1, 2]);
        expect((await log.read({ afterSeq: 2, limit: 2 })).map((t) => t.seq)).toEqual([3, 4]);
        expect((await log.read({ sessionId: 'even', limit: 2 })).map((t) => t.seq)).toEqual([2, 4]);
        expect((await log.read({ sessionId: 'even', afterSeq: 2, limit: 10 })).map((t) => t.seq)).toEqual([4, 6]);
      });
    });

    describe('clear', () => {
      it('removes every turn and returns how many', async () => {
        const log = await harness.open();
        for (let i = 0; i < 4; i++) await say(log, `turn ${i}`);
        expect(await log.clear()).toBe(4);
        expect(await log.read()).toEqual([]);
        expect(await log.clear()).toBe(0);
      });

      it('through a seq, keeps the turns appended after the caller read', async () => {
        const log = await harness.open();
        await say(log, 'first');
        await say(log, 'second');
        const read = await log.read();
        const lastRead = read[read.length - 1]!.seq;
        const arrivedMeanwhile = await say(log, 'arrived while the dream cycle was working', 'session-2');
        expect(await log.clear({ throughSeq: lastRead })).toBe(2);
        expect(await log.read()).toEqual([arrivedMeanwhile]);
      });

      it('never reuses a seq after a clear', async () => {
        const log = await harness.open();
        await say(log, 'one');
        await say(log, 'two');
        await say(log, 'three');
        await log.clear();
        const next = await say(log, 'four');
        expect(next.seq).toBe(4);
        await log.clear({ throughSeq: 4 });
        expect((await say(log, 'five')).seq).toBe(5);
        expect((await log.read()).map((t) => t.seq)).toEqual([5]);
      });
    });

    describe('invalid input', () => {
      it('refuses an invalid role, an empty session id and a bad timestamp, and writes nothing', async () => {
        const log = await harness.open();
        const bad: unknown[] = [
          { sessionId: 's', role: 'narrator', content: 'x' },
          { sessionId: '', role: 'user', content: 'x' },
          { sessionId: 's', role: 'user', content: 'x', timestamp: 'yesterday' },
          { sessionId: 's', role: 'user' },
        ];
        for (const turn of bad) {
          await expect(log.append(turn as ConversationTurnDraft)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        }
        expect(await log.read()).toEqual([]);
        expect((await say(log, 'the first valid turn')).seq).toBe(1);
      });

      it('refuses a bad range', async () => {
        const log = await harness.open();
        await expect(log.read({ since: 'last week' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        await expect(log.read({ until: 'tomorrow' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      });
    });

    describe('concurrency', () => {
      it('gives 200 parallel appends 200 distinct seqs and keeps them all', async () => {
        const log = await harness.open();
        const turns = await Promise.all(Array.from({ length: 200 }, (_, i) => say(log, `parallel ${i}`, `session-${i % 5}`)));
        const seqs = turns.map((t) => t.seq);
        expect(new Set(seqs).size).toBe(200);
        expect([...seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
        const read = await log.read();
        expect(read).toHaveLength(200);
        expect(read.map((t) => t.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
        expect(new Set(read.map((t) => t.content)).size).toBe(200);
      });

      it('keeps turns appended while a clear runs', async () => {
        const log = await harness.open();
        for (let i = 0; i < 10; i++) await say(log, `old ${i}`);
        const [removed, ...fresh] = await Promise.all([
          log.clear({ throughSeq: 10 }),
          ...Array.from({ length: 10 }, (_, i) => say(log, `new ${i}`)),
        ]);
        expect(removed).toBe(10);
        const kept = await log.read();
        expect(kept).toHaveLength(10);
        expect(kept.map((t) => t.seq)).toEqual(fresh.map((t) => t.seq).sort((a, b) => a - b));
        expect(kept.every((t) => t.content.startsWith('new '))).toBe(true);
      });
    });

    describe('user text is data (SPEC M2)', () => {
      it('keeps any turn text and session id exactly, and refuses only what no store can hold', async () => {
        const log = await harness.open();
        const appended = [];
        for (const [i, content] of userTexts(24).entries()) {
          const turn = await storedOrRefused(
            log.append({ sessionId: NAME_WORDS[i % NAME_WORDS.length]!, role: i % 2 === 0 ? 'user' : 'assistant', content }),
          );
          if (turn) appended.push(turn);
        }
        expect(appended.length).toBe(24);
        for (const bad of UNSTORABLE_FRAGMENTS) {
          await expect(log.append({ sessionId: 's', role: 'user', content: bad })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        }
        expect(await log.read()).toEqual(appended);
        expect(await log.read({ sessionId: 'constructor' })).toEqual(appended.filter((turn) => turn.sessionId === 'constructor'));
        if (options.persistent) expect(await (await harness.reopen(log)).read()).toEqual(appended);
      });
    });

    describe('lifecycle', () => {
      it('refuses calls after close with STORE_CLOSED', async () => {
        const log = await harness.open();
        await say(log, 'before close');
        await log.close();
        await expect(say(log, 'after close')).rejects.toMatchObject({ code: 'STORE_CLOSED' });
        await expect(log.read()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
        await expect(log.clear()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
      });

      if (options.persistent) {
        it('finds every turn again after a reopen and keeps counting seq', async () => {
          const log = await harness.open();
          const first = await say(log, 'Remember that I prefer metric units', 'alpha');
          harness.clock.advance(MINUTE);
          const second = await say(log, 'Noted.', 'alpha', 'assistant');
          const reopened = await harness.reopen(log);
          expect(await reopened.read()).toEqual([first, second]);
          expect(await reopened.read({ afterSeq: 1 })).toEqual([second]);
          const third = await say(reopened, 'And I live in Porto', 'alpha');
          expect(third.seq).toBe(3);
          expect((await reopened.read()).map((t) => t.seq)).toEqual([1, 2, 3]);
        });

        it('keeps clears across a reopen and never reuses a seq', async () => {
          const log = await harness.open();
          for (let i = 0; i < 3; i++) await say(log, `turn ${i}`);
          expect(await log.clear({ throughSeq: 2 })).toBe(2);
          const reopened = await harness.reopen(log);
          expect((await reopened.read()).map((t) => t.seq)).toEqual([3]);
          expect(await reopened.clear()).toBe(1);
          const again = await harness.reopen(reopened);
          expect(await again.read()).toEqual([]);
          expect((await say(again, 'after everything was cleared')).seq).toBe(4);
        });
      }
    });
  });
}
