import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isReverieError, ReverieError } from '@reverie/core';
import { type FileSystemFaults, injectFileSystemFaults } from '@reverie/core/testing';
import { createReverie, type Reverie } from 'reverie';

/**
 * SPEC B2: on a read-only or full disk, or with a file where a folder belongs, every
 * public call fails with a ReverieError that has a file-system code, the path and advice — never
 * a raw EROFS/EEXIST/ENOTDIR/EISDIR — and the agent tools answer with a tool error.
 */
type Tool = { execute?: (input: unknown, options: { toolCallId: string; messages: [] }) => unknown };
const call = async <T>(tool: unknown, input: unknown) => (await (tool as Tool).execute!(input, { toolCallId: 'c1', messages: [] })) as T;

let root: string;
let faults: FileSystemFaults;
const open: Reverie[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'reverie-fs-faults-'));
  faults = injectFileSystemFaults();
});
afterEach(async () => {
  faults.restore();
  for (const reverie of open.splice(0)) await reverie.close().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
});
const build = (dataPath: string) => {
  const reverie = createReverie({ dataPath })
    .withMemory()
    .withWorkingMemory()
    .withConversationLog()
    .withDreaming({ enabled: false })
    .build();
  open.push(reverie);
  return reverie;
};

async function failure(work: () => Promise<unknown>): Promise<ReverieError> {
  try {
    await work();
  } catch (error) {
    if (isReverieError(error)) return error;
    throw new Error(`expected a ReverieError, got ${String(error)} (code ${(error as { code?: string }).code})`);
  }
  throw new Error('expected the call to fail');
}

describe('a read-only data directory', () => {
  it.each([
    ['EROFS', 'READ_ONLY'],
    ['ENOSPC', 'NO_SPACE'],
    ['EIO', 'IO_ERROR'],
  ] as const)('%s surfaces as %s from every writing call, with the path and what to do', async (errno, code) => {
    const dataPath = join(root, 'data');
    const seeded = build(dataPath);
    await seeded.memory!.save({ content: 'The user likes tea.' });
    await seeded.workingMemory!.set('session/s1/inbox', 'hello');
    faults.set({ errno, under: dataPath });

    const reverie = build(dataPath);
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['memory.save', () => reverie.memory!.save({ content: 'The user likes coffee.' })],
      ['workingMemory.set', () => reverie.workingMemory!.set('session/s1/other', 'x')],
      // A turn does not wait for the conversation log: the log's failure surfaces in flush().
      [
        'forTurn + recordReply, then conversation.flush',
        async () => {
          await reverie.context.forTurn({ sessionId: 's1', message: 'What does the user like?' });
          await reverie.context.recordReply('s1', 'Tea.');
          await reverie.conversation.flush();
        },
      ],
      ['dreams.run', () => reverie.dreams.run()],
    ];
    for (const [label, work] of calls) {
      const error = await failure(work);
      expect({ label, code: error.code }).toEqual({ label, code });
      expect(error.message).toContain(dataPath);
      expect(error.details.path).toEqual(expect.stringContaining(dataPath));
    }

    const saved = await call<{ error?: string; message?: string }>(reverie.tools.memory().save_memory, { content: 'Remember this.' });
    expect(saved.error).toBe(code);
    const wm = await call<{ error?: string }>(reverie.tools.workingMemory({ namespace: 'session/s1' }).save_to_working_memory, {
      key: 'notes',
      data: 'x',
    });
    expect(wm.error).toBe(code);
  });
});

describe('a file or folder where the other belongs', () => {
  it('"memory" being a file is NOT_A_DIRECTORY', async () => {
    const dataPath = join(root, 'data');
    mkdirSync(dataPath, { recursive: true });
    writeFileSync(join(dataPath, 'memory'), 'not a folder');
    const error = await failure(() => build(dataPath).memory!.save({ content: 'x' }));
    expect(error.code).toBe('NOT_A_DIRECTORY');
  });

  it('"memory/.lock" being a file is NOT_A_DIRECTORY', async () => {
    const dataPath = join(root, 'data');
    mkdirSync(join(dataPath, 'memory'), { recursive: true });
    writeFileSync(join(dataPath, 'memory', '.lock'), 'not a folder');
    const error = await failure(() => build(dataPath).memory!.save({ content: 'x' }));
    expect(['NOT_A_DIRECTORY', 'LOCK_HELD']).toContain(error.code);
  });

  it('"memory/.changes.jsonl" being a folder is IS_A_DIRECTORY', async () => {
    const dataPath = join(root, 'data');
    mkdirSync(join(dataPath, 'memory', '.changes.jsonl'), { recursive: true });
    const error = await failure(() => build(dataPath).memory!.save({ content: 'x' }));
    expect(error.code).toBe('IS_A_DIRECTORY');
  });
});

describe('absurd magnitudes', () => {
  it('a TTL of 9e15 ms is INVALID_INPUT from the store and a tool error from the tool, not a RangeError', async () => {
    const reverie = build(join(root, 'data'));
    const error = await failure(() => reverie.workingMemory!.set('session/s1/big', 'x', { ttlMs: 9e15 }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('30 days');
    const answer = await call<{ error?: string }>(reverie.tools.workingMemory({ namespace: 'session/s1' }).save_to_working_memory, {
      key: 'big',
      data: 'x',
      ttl_minutes: 1.5e11,
    });
    expect(answer.error).toBe('INVALID_INPUT');
    expect(await reverie.workingMemory!.list('session/s1')).toEqual([]);
  });
});
