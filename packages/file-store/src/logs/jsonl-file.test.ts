import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type LoggedTurn, loggedTurnSchema, ManualClock, RecordingLogger } from '@reverie/core';
import { DirectoryLock } from '../fs/directory-lock';
import { FileConversationLog } from './file-conversation-log';
import { JsonlFile } from './jsonl-file';

const root = mkdtempSync(join(tmpdir(), 'reverie-jsonl-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dir: string;
let path: string;
let caseNumber = 0;

beforeEach(() => {
  caseNumber += 1;
  dir = join(root, `case-${caseNumber}`);
  path = join(dir, 'turns.jsonl');
});

const turn = (seq: number, content = `turn ${seq}`): LoggedTurn => ({
  sessionId: 'session-1',
  role: 'user',
  content,
  timestamp: '2026-03-01T12:00:00.000Z',
  seq,
});
const line = (record: unknown) => `${JSON.stringify(record)}\n`;

function openFile(logger = new RecordingLogger()) {
  const file = new JsonlFile<LoggedTurn>({
    path,
    schema: loggedTurnSchema,
    lock: new DirectoryLock(dir),
    logger,
    what: 'conversation turn',
    clock: new ManualClock('2026-03-01T12:00:00.000Z'),
  });
  return { file, logger };
}

function writeByHand(text: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path, text);
}

const warnings = (logger: RecordingLogger) => logger.records.filter((record) => record.level === 'warn');
const fileLines = () => readFileSync(path, 'utf8').split('\n');

describe('JsonlFile', () => {
  describe('reading damaged files', () => {
    it('skips a torn last line, reports it once with its line number, and appends after it on a line of its own', async () => {
      writeByHand(`${line(turn(1))}${line(turn(2))}{"sessionId":"session-1","role":"us`);
      const { file, logger } = openFile();

      const first = await file.read();
      expect(first.records.map((t) => t.seq)).toEqual([1, 2]);
      expect(first.skipped).toBe(1);
      expect(warnings(logger)).toHaveLength(1);
      expect(warnings(logger)[0]).toMatchObject({ context: { file: path, line: 3 } });
      expect(warnings(logger)[0]!.message).toContain('line 3');

      await file.append([turn(3)]);
      const lines = fileLines();
      expect(lines[2]).toBe('{"sessionId":"session-1","role":"us');
      expect(JSON.parse(lines[3]!)).toEqual(turn(3));

      const second = await file.read();
      expect(second.records.map((t) => t.seq)).toEqual([1, 2, 3]);
      expect(second.skipped).toBe(1);
      expect(warnings(logger)).toHaveLength(1);

      const other = openFile();
      expect((await other.file.read()).records.map((t) => t.seq)).toEqual([1, 2, 3]);
      expect(warnings(other.logger)).toMatchObject([{ context: { line: 3 } }]);
    });

    it('closes a torn line before an append that comes first, so the new record is not glued to it', async () => {
      writeByHand(`${line(turn(1))}{"sessionId":"sess`);
      const { file, logger } = openFile();
      await file.append([turn(2)]);
      expect(fileLines()).toEqual([JSON.stringify(turn(1)), '{"sessionId":"sess', JSON.stringify(turn(2)), '']);
      const read = await file.read();
      expect(read.records.map((t) => t.seq)).toEqual([1, 2]);
      expect(read.skipped).toBe(1);
      expect(warnings(logger)).toMatchObject([{ context: { line: 2 } }]);
    });

    it('skips a line of invalid JSON in the middle and loads the rest', async () => {
      writeByHand(`${line(turn(1))}this is {not json\n${line(turn(2))}${line(turn(3))}`);
      const { file, logger } = openFile();
      const read = await file.read();
      expect(read.records.map((t) => t.seq)).toEqual([1, 2, 3]);
      expect(read.skipped).toBe(1);
      expect(warnings(logger)).toHaveLength(1);
      expect(warnings(logger)[0]).toMatchObject({ context: { line: 2, reason: expect.stringContaining('not valid JSON') } });
    });

    it('skips a line that is JSON but not a valid record', async () => {
      writeByHand(`${line(turn(1))}${line({ ...turn(2), role: 'narrator' })}${line({ seq: 3 })}${line(turn(4))}`);
      const { file, logger } = openFile();
      const read = await file.read();
      expect(read.records.map((t) => t.seq)).toEqual([1, 4]);
      expect(read.skipped).toBe(2);
      expect(warnings(logger).map((w) => w.context?.line)).toEqual([2, 3]);
      expect(warnings(logger)[0]!.context?.reason).toMatch(/not a valid conversation turn: role/);
    });

    it('reports a bad line once however often the file is read', async () => {
      writeByHand(`not json\n${line(turn(1))}`);
      const { file, logger } = openFile();
      for (let i = 0; i < 3; i++) expect((await file.read()).skipped).toBe(1);
      await file.append([turn(2)]);
      expect((await file.read()).records).toHaveLength(2);
      // A new mtime at the same size makes the file look changed in place: it is read again whole.
      utimesSync(path, new Date('2030-01-01T00:00:00.000Z'), new Date('2030-01-01T00:00:00.000Z'));
      expect(await file.read()).toMatchObject({ skipped: 1, records: [{ seq: 1 }, { seq: 2 }] });
      expect(warnings(logger)).toHaveLength(1);
    });

    it('reads a missing file as empty', async () => {
      const { file } = openFile();
      expect(await file.read()).toEqual({ records: [], skipped: 0 });
    });
  });

  describe('append', () => {
    it('writes one JSON line per record and refuses an invalid record without writing anything', async () => {
      const { file } = openFile();
      await file.append([turn(1), turn(2)]);
      await expect(file.append([turn(3), { ...turn(4), role: 'narrator' } as unknown as LoggedTurn])).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
      expect(fileLines()).toEqual([JSON.stringify(turn(1)), JSON.stringify(turn(2)), '']);
    });

    it('keeps 300 parallel appends whole and in the order they were queued', async () => {
      const { file } = openFile();
      await Promise.all(Array.from({ length: 300 }, (_, i) => file.append([turn(i + 1)])));
      const read = await file.read();
      expect(read.skipped).toBe(0);
      expect(read.records.map((t) => t.seq)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    });
  });

  describe('seeing what other writers did', () => {
    it('sees lines another instance appended, and a rewrite it made', async () => {
      const a = openFile().file;
      const b = openFile().file;
      await a.append([turn(1)]);
      expect((await b.read()).records.map((t) => t.seq)).toEqual([1]);
      await b.append([turn(2), turn(3)]);
      expect((await a.read()).records.map((t) => t.seq)).toEqual([1, 2, 3]);
      expect(await b.rewrite((t) => t.seq === 3)).toBe(2);
      expect((await a.read()).records.map((t) => t.seq)).toEqual([3]);
      await a.append([turn(4)]);
      expect((await b.read()).records.map((t) => t.seq)).toEqual([3, 4]);
    });

    it('reads the file again from the start when it was replaced in place by a longer one', async () => {
      const { file } = openFile();
      await file.append([turn(1), turn(2)]);
      expect((await file.read()).records).toHaveLength(2);
      // Same inode, more bytes than before, different content: not an append.
      writeFileSync(path, `${line(turn(7, 'replaced'))}${line(turn(8, 'replaced'))}${line(turn(9, 'replaced'))}`);
      const read = await file.read();
      expect(read.records.map((t) => [t.seq, t.content])).toEqual([
        [7, 'replaced'],
        [8, 'replaced'],
        [9, 'replaced'],
      ]);
    });

    it('picks up a line appended by hand after a cached read', async () => {
      const { file } = openFile();
      await file.append([turn(1)]);
      await file.read();
      appendFileSync(path, line(turn(2)));
      expect((await file.read()).records.map((t) => t.seq)).toEqual([1, 2]);
    });
  });

  describe('rewrite', () => {
    it('replaces the file atomically with the kept records and leaves no temp file', async () => {
      const { file } = openFile();
      await file.append(Array.from({ length: 10 }, (_, i) => turn(i + 1)));
      // A temp file left by a process killed during an earlier rewrite.
      writeFileSync(join(dir, '.turns.jsonl.4242.deadbeef.tmp'), 'half a rewrite');
      expect(await file.rewrite((t) => t.seq > 6)).toBe(6);
      expect(fileLines()).toEqual([7, 8, 9, 10].map((seq) => JSON.stringify(turn(seq))).concat(''));
      expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      expect((await openFile().file.read()).records.map((t) => t.seq)).toEqual([7, 8, 9, 10]);
    });

    it('changes nothing and returns 0 when every record is kept', async () => {
      const { file } = openFile();
      await file.append([turn(1)]);
      const before = readFileSync(path, 'utf8');
      expect(await file.rewrite(() => true)).toBe(0);
      expect(readFileSync(path, 'utf8')).toBe(before);
    });

    it('moves unreadable lines to .quarantine instead of dropping them silently', async () => {
      writeByHand(`${line(turn(1))}garbage line\n${line(turn(2))}{"torn`);
      const { file, logger } = openFile();
      expect(await file.rewrite((t) => t.seq === 2)).toBe(1);
      expect(fileLines()).toEqual([JSON.stringify(turn(2)), '']);
      const quarantined = readdirSync(join(dir, '.quarantine'));
      expect(quarantined).toHaveLength(1);
      expect(quarantined[0]).toMatch(/^turns\.jsonl\./);
      expect(readFileSync(join(dir, '.quarantine', quarantined[0]!), 'utf8')).toBe('garbage line\n{"torn\n');
      expect(warnings(logger).at(-1)).toMatchObject({ context: { lines: [2, 4] } });
      expect((await file.read()).skipped).toBe(0);
    });
  });
});

describe('FileConversationLog seq across instances', () => {
  const say = (log: FileConversationLog, content: string) => log.append({ sessionId: 's', role: 'user', content });

  it('gives 400 distinct seqs to two instances appending 200 turns each in parallel', async () => {
    const one = new FileConversationLog({ dataPath: dir });
    const two = new FileConversationLog({ dataPath: dir });
    const turns = await Promise.all(Array.from({ length: 200 }, (_, i) => [say(one, `one ${i}`), say(two, `two ${i}`)]).flat());
    const seqs = turns.map((t) => t.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    for (const log of [one, two]) {
      const read = await log.read();
      expect(read.map((t) => t.seq)).toEqual(seqs);
      expect(new Set(read.map((t) => t.content)).size).toBe(400);
    }
    await Promise.all([one.close(), two.close()]);
  });

  it('continues seq after a clear, after a reopen, and in an instance opened after everything was cleared', async () => {
    const log = new FileConversationLog({ dataPath: dir });
    for (let i = 1; i <= 3; i++) await say(log, `turn ${i}`);
    expect(await log.clear()).toBe(3);
    expect((await say(log, 'after clear')).seq).toBe(4);
    await log.close();

    const reopened = new FileConversationLog({ dataPath: dir });
    expect((await say(reopened, 'after reopen')).seq).toBe(5);
    expect(await reopened.clear({ throughSeq: 5 })).toBe(2);
    expect(await reopened.read()).toEqual([]);
    await reopened.close();

    // The log file is empty now: only the seq mark remembers that 5 was handed out.
    expect(readFileSync(join(dir, 'logs', 'conversation.jsonl'), 'utf8')).toBe('');
    const fresh = new FileConversationLog({ dataPath: dir });
    expect((await say(fresh, 'in a new process')).seq).toBe(6);
    expect((await fresh.read()).map((t) => t.seq)).toEqual([6]);
    await fresh.close();
  });

  it('never reuses a seq another instance cleared', async () => {
    const one = new FileConversationLog({ dataPath: dir });
    const two = new FileConversationLog({ dataPath: dir });
    await say(one, 'a');
    await say(one, 'b');
    expect((await two.read()).map((t) => t.seq)).toEqual([1, 2]);
    expect(await one.clear()).toBe(2);
    expect((await say(two, 'c')).seq).toBe(3);
    expect((await one.read()).map((t) => t.seq)).toEqual([3]);
    await Promise.all([one.close(), two.close()]);
  });

  it('keeps a turn another instance appended after the clearing instance read', async () => {
    const reader = new FileConversationLog({ dataPath: dir });
    const writer = new FileConversationLog({ dataPath: dir });
    await say(writer, 'old 1');
    await say(writer, 'old 2');
    const read = await reader.read();
    const late = await say(writer, 'arrived while the dream cycle was working');
    expect(await reader.clear({ throughSeq: read.at(-1)!.seq })).toBe(2);
    expect(await reader.read()).toEqual([late]);
    expect(await writer.read()).toEqual([late]);
    await Promise.all([reader.close(), writer.close()]);
  });

  it('does not hand out a seq again when a complete turn lost only its newline', async () => {
    const log = new FileConversationLog({ dataPath: dir });
    await say(log, 'one');
    await say(log, 'two');
    // A process wrote turn 3 in full but was killed before the "\n".
    appendFileSync(join(dir, 'logs', 'conversation.jsonl'), JSON.stringify({ ...turn(3), content: 'three' }));
    expect((await say(log, 'four')).seq).toBe(4);
    expect((await log.read()).map((t) => [t.seq, t.content])).toEqual([
      [1, 'one'],
      [2, 'two'],
      [3, 'three'],
      [4, 'four'],
    ]);
    await log.close();
  });

  it('refuses a throughSeq that is not a number and removes nothing', async () => {
    const log = new FileConversationLog({ dataPath: dir });
    await say(log, 'kept');
    await expect(log.clear({ throughSeq: 'all' as unknown as number })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(log.clear({ throughSeq: Number.NaN })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(await log.read()).toHaveLength(1);
    await log.close();
  });

  it('waits for queued appends on close, then refuses calls', async () => {
    const log = new FileConversationLog({ dataPath: dir });
    const pending = Array.from({ length: 20 }, (_, i) => say(log, `queued ${i}`));
    await log.close();
    await expect(say(log, 'too late')).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    expect((await Promise.all(pending)).map((t) => t.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const reopened = new FileConversationLog({ dataPath: dir });
    expect(await reopened.read()).toHaveLength(20);
    await reopened.close();
  });
});

describe('FileConversationLog in two real processes', () => {
  const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
  const source = fileURLToPath(new URL('./file-conversation-log.ts', import.meta.url));

  /** Runs a child process that appends `count` turns in parallel and prints their seqs. */
  async function appendInChild(dataPath: string, name: string, count: number): Promise<number[]> {
    const script = join(dirname(dataPath), `${name}.mts`);
    mkdirSync(dirname(script), { recursive: true });
    writeFileSync(
      script,
      [
        `import { FileConversationLog } from ${JSON.stringify(source)};`,
        `const log = new FileConversationLog({ dataPath: ${JSON.stringify(dataPath)} });`,
        `const turns = await Promise.all(Array.from({ length: ${count} }, (_, i) => log.append({ sessionId: ${JSON.stringify(name)}, role: 'user', content: ${JSON.stringify(name)} + ' ' + i })));`,
        'await log.close();',
        'process.stdout.write(JSON.stringify(turns.map((turn) => turn.seq)));',
      ].join('\n'),
    );
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      cwd: packageRoot,
      env: { ...process.env, TSX_TSCONFIG_PATH: join(packageRoot, '../../tsconfig.json') },
    });
    return JSON.parse(stdout) as number[];
  }

  it('gives every turn of two processes appending at once its own seq, and loses none', async () => {
    const dataPath = join(dir, 'data');
    const [first, second] = await Promise.all([appendInChild(dataPath, 'first', 200), appendInChild(dataPath, 'second', 200)]);
    expect(first).toHaveLength(200);
    expect(second).toHaveLength(200);
    const all = [...first, ...second].sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));

    const logger = new RecordingLogger();
    const log = new FileConversationLog({ dataPath, logger });
    const read = await log.read();
    expect(read.map((t) => t.seq)).toEqual(all);
    expect(read.filter((t) => t.sessionId === 'first').map((t) => t.content)).toEqual(Array.from({ length: 200 }, (_, i) => `first ${i}`));
    expect(warnings(logger)).toEqual([]);
    await log.close();
  });
});
