import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@reverie/core';
import { FileConversationLog } from './file-conversation-log';

let dataPath: string;
beforeEach(async () => {
  dataPath = await mkdtemp(join(tmpdir(), 'reverie-conversation-log-'));
});
afterEach(async () => {
  await rm(dataPath, { recursive: true, force: true });
});

describe('FileConversationLog appends made while another holds the lock', () => {
  it('are written as groups in call order, each with its own seq, every one on disk when it resolves', async () => {
    const log = new FileConversationLog({ dataPath, clock: new ManualClock('2026-06-01T00:00:00Z') });
    const appended = await Promise.all(
      Array.from({ length: 60 }, (_, i) => log.append({ sessionId: `s${i % 3}`, role: 'user', content: `message ${i}` })),
    );
    expect(appended.map((turn) => turn.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(appended.map((turn) => turn.content)).toEqual(Array.from({ length: 60 }, (_, i) => `message ${i}`));
    const onDisk = (await readFile(join(dataPath, 'logs', 'conversation.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(onDisk.map((turn) => [turn.seq, turn.content])).toEqual(appended.map((turn) => [turn.seq, turn.content]));
    await log.close();
  });

  it('continue the numbering of a second instance on the same directory', async () => {
    const first = new FileConversationLog({ dataPath });
    const second = new FileConversationLog({ dataPath });
    const turns = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? first : second).append({ sessionId: 's', role: 'user', content: `m${i}` })),
    );
    expect(new Set(turns.map((turn) => turn.seq)).size).toBe(40);
    expect((await first.read()).map((turn) => turn.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    await Promise.all([first.close(), second.close()]);
  });

  it('all reject when their group cannot be written, and later appends still work', async () => {
    await mkdir(join(dataPath, 'logs', 'conversation.jsonl'), { recursive: true });
    const log = new FileConversationLog({ dataPath });
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => log.append({ sessionId: 's', role: 'user', content: `m${i}` })),
    );
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    await rm(join(dataPath, 'logs', 'conversation.jsonl'), { recursive: true });
    await expect(log.append({ sessionId: 's', role: 'user', content: 'after' })).resolves.toMatchObject({ seq: 1, content: 'after' });
    await log.close();
  });
});
