import { execFile, execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock, RecordingLogger, type WorkingMemoryEntry } from '@reverie/core';
import { describeWorkingMemoryConformance, MINUTE } from '@reverie/core/testing';
import { FileWorkingMemory, type FileWorkingMemoryOptions } from './file-working-memory';
import { DirectoryLock } from '../fs/directory-lock';

const root = mkdtempSync(join(tmpdir(), 'reverie-wm-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describeWorkingMemoryConformance(
  'FileWorkingMemory',
  ({ clock, scope }) => new FileWorkingMemory({ dataPath: join(root, scope), clock, sweepIntervalMs: 0 }),
  { persistent: true, cleanup: (scope) => rmSync(join(root, scope), { recursive: true, force: true }) },
);

let counter = 0;
const opened: FileWorkingMemory[] = [];

/** A fresh data directory, and a store on it that is closed after the test. */
function setup(options: Partial<FileWorkingMemoryOptions> = {}) {
  const dataPath = join(root, `case-${++counter}`);
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const open = (more: Partial<FileWorkingMemoryOptions> = {}) => {
    const store = new FileWorkingMemory({ dataPath, clock, sweepIntervalMs: 0, ...options, ...more });
    opened.push(store);
    return store;
  };
  return { dataPath, clock, dir: join(dataPath, 'working-memory'), open };
}

afterEach(async () => {
  vi.useRealTimers();
  for (const store of opened.splice(0)) await store.close();
});

function readGroupFile(dir: string, group: string): { schemaVersion: number; entries: WorkingMemoryEntry[] } {
  return JSON.parse(readFileSync(join(dir, `${group}.json`), 'utf8'));
}

const keysIn = (dir: string, group: string) => readGroupFile(dir, group).entries.map((entry) => entry.key);

/**
 * Runs `lines` in a child process (tsx) with `store`, a `FileWorkingMemory` on the data
 * directory it is given, and `arg`, the second argument.
 */
function childWriter(lines: string[]): (dataPath: string, arg: string) => Promise<unknown> {
  const script = join(root, `writer-${++counter}.mts`);
  const moduleUrl = new URL('./file-working-memory.ts', import.meta.url).href;
  writeFileSync(
    script,
    [
      `import { FileWorkingMemory } from ${JSON.stringify(moduleUrl)};`,
      'const [dataPath, arg] = process.argv.slice(2);',
      'const store = new FileWorkingMemory({ dataPath });',
      ...lines,
    ].join('\n'),
  );
  const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
  const tsconfig = fileURLToPath(new URL('../../../../tsconfig.json', import.meta.url));
  return (dataPath, arg) =>
    promisify(execFile)(tsx, ['--tsconfig', tsconfig, script, dataPath, arg], { timeout: 20_000, killSignal: 'SIGKILL' });
}

describe('FileWorkingMemory files', () => {
  it('keeps one file per namespace holding exactly the live entries', async () => {
    const { dir, clock, open } = setup();
    const store = await open();
    const inbox = await store.set('session/abc/inbox', '12 unread', { category: 'email', tags: ['inbox'], ttlMs: 60 * MINUTE });
    await store.set('session/def/draft', 'reply to Ana', { ttlMs: 60 * MINUTE });
    await store.set('session/abc/short', 'gone soon', { ttlMs: MINUTE });
    const alerts = await store.set('patrol/heartbeat/alerts', 'disk 91%');
    await store.set('subagent/t1/research-index', 'outline');
    await store.delete('subagent/t1/research-index');
    expect(await store.delete('session/def/draft')).toBe(true);
    clock.advance(2 * MINUTE);
    const fresh = await store.set('session/def/fresh', 'new', { ttlMs: 60 * MINUTE });

    await store.sweep();
    expect((readdirSync(dir, { recursive: true }) as string[]).sort()).toEqual([
      'patrol',
      'patrol/heartbeat.json',
      'session',
      'session/abc.json',
      'session/def.json',
      'subagent',
      'subagent/t1.json',
    ]);
    expect(readGroupFile(dir, 'session/abc')).toEqual({ schemaVersion: 1, entries: [inbox] });
    expect(readGroupFile(dir, 'session/def')).toEqual({ schemaVersion: 1, entries: [fresh] });
    expect(readGroupFile(dir, 'patrol/heartbeat')).toEqual({ schemaVersion: 1, entries: [alerts] });
    expect(readGroupFile(dir, 'subagent/t1')).toEqual({ schemaVersion: 1, entries: [] });
  });

  it('writes nothing to disk until something is saved', async () => {
    const { dataPath, open } = setup();
    const store = await open({ sweepIntervalMs: 20 });
    expect(await store.list()).toEqual([]);
    expect(await store.sweep()).toBe(0);
    expect(existsSync(dataPath)).toBe(false);
  });

  it('honours maxEntriesPerNamespace and defaultTtlMs, in memory and on disk', async () => {
    const { dir, clock, open } = setup({ maxEntriesPerNamespace: 2, defaultTtlMs: MINUTE });
    const store = await open();
    for (const name of ['a', 'b', 'c']) {
      await store.set(`session/abc/${name}`, name);
      clock.advance(1);
    }
    expect(keysIn(dir, 'session/abc')).toEqual(['session/abc/b', 'session/abc/c']);
    clock.advance(MINUTE);
    expect(await store.list()).toEqual([]);
  });

  it('drops entries that expired while closed, and the next sweep removes them from the file', async () => {
    const { dir, clock, open } = setup();
    const first = await open();
    await first.set('patrol/heartbeat/old', 'stale', { ttlMs: MINUTE });
    await first.set('patrol/heartbeat/kept', 'fresh', { ttlMs: 60 * MINUTE });
    await first.close();
    clock.advance(2 * MINUTE);

    const second = await open();
    expect((await second.list()).map((entry) => entry.key)).toEqual(['patrol/heartbeat/kept']);
    expect(keysIn(dir, 'patrol/heartbeat')).toEqual(['patrol/heartbeat/old', 'patrol/heartbeat/kept']);
    await second.sweep();
    expect(keysIn(dir, 'patrol/heartbeat')).toEqual(['patrol/heartbeat/kept']);
  });
});

describe('FileWorkingMemory damaged files', () => {
  it('removes temporary files left by a process that died mid-write when it sweeps', async () => {
    const { dir, open } = setup();
    const store = await open();
    const saved = await store.set('session/abc/inbox', 'kept');
    writeFileSync(join(dir, 'session', '.abc.json.4242.deadbeef.tmp'), '{"schemaVersion": 1, "entr');
    expect(await store.sweep()).toBe(0);
    expect(readdirSync(join(dir, 'session'))).toEqual(['abc.json']);
    expect(await store.list()).toEqual([saved]);
  });

  it('quarantines a group file that is not valid JSON, warns, and still loads the other groups', async () => {
    const { dir, open } = setup();
    const writer = await open();
    await writer.set('session/abc/inbox', 'lost with the file');
    const alert = await writer.set('patrol/heartbeat/alert', 'disk full');
    await writer.close();
    writeFileSync(join(dir, 'session', 'abc.json'), '{"schemaVersion": 1, "entries": [');

    const logger = new RecordingLogger();
    const reader = await open({ logger });
    expect(await reader.list()).toEqual([alert]);
    expect(existsSync(join(dir, 'session', 'abc.json'))).toBe(false);
    const quarantined = readdirSync(join(dir, '.quarantine', 'session'));
    expect(quarantined).toHaveLength(1);
    expect(quarantined[0]).toMatch(/^abc\.json\./);
    expect(readFileSync(join(dir, '.quarantine', 'session', quarantined[0]!), 'utf8')).toBe('{"schemaVersion": 1, "entries": [');
    expect(logger.records).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringContaining('quarantine') }));

    await reader.set('session/abc/inbox', 'saved again');
    expect(keysIn(dir, 'session/abc')).toEqual(['session/abc/inbox']);
  });

  it('quarantines valid JSON that is not a group file', async () => {
    const { dir, open } = setup();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'patrol.json'), '["not", "a", "group"]');
    const logger = new RecordingLogger();
    const store = await open({ logger });
    expect(await store.list()).toEqual([]);
    expect(readdirSync(join(dir, '.quarantine'))).toHaveLength(1);
    expect(logger.records.filter((record) => record.level === 'warn')).toHaveLength(1);
  });

  it('skips invalid entries with a warning and keeps the valid ones', async () => {
    const { dir, open } = setup();
    const valid = {
      key: 'patrol/heartbeat/ok',
      value: 'fine',
      storedAt: '2026-03-01T12:00:00.000Z',
      expiresAt: '2026-03-01T13:00:00.000Z',
      tags: [],
    };
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'patrol.json'),
      JSON.stringify({
        schemaVersion: 1,
        entries: [
          valid,
          { ...valid, key: 'patrol/heartbeat/bad', value: 42 },
          { ...valid, key: 'session/abc/misfiled' },
          { ...valid, key: '../escape/x' },
        ],
      }),
    );
    const logger = new RecordingLogger();
    const store = await open({ logger });
    expect(await store.list()).toEqual([valid]);
    expect(await store.get('session/abc/misfiled')).toBeUndefined();
    const warnings = logger.records.filter((record) => record.level === 'warn');
    expect(warnings).toHaveLength(3);
    expect(warnings.map((warning) => warning.context?.key)).toEqual(['patrol/heartbeat/bad', 'session/abc/misfiled', '../escape/x']);
    expect(existsSync(join(dir, '.quarantine'))).toBe(false);
  });
});

describe('FileWorkingMemory faults (SPEC M7, B2)', () => {
  it('keeps the entry it just saved when the wall clock stepped back with the namespace at its cap', async () => {
    const { clock, open } = setup({ maxEntriesPerNamespace: 3 });
    const store = await open();
    for (const name of ['a', 'b', 'c']) {
      await store.set(`session/abc/${name}`, name, { ttlMs: 24 * 60 * MINUTE });
      clock.advance(1);
    }
    clock.set(new Date(clock.now().getTime() - 60 * MINUTE));
    await store.set('session/abc/new', 'just saved');
    expect((await store.get('session/abc/new'))?.value).toBe('just saved');
    expect((await store.list('session/abc')).map((entry) => entry.key)).toEqual(['session/abc/b', 'session/abc/c', 'session/abc/new']);
  });

  it('counts a TTL on the monotonic clock: a wall-clock jump neither expires an entry nor keeps it alive', async () => {
    const { clock, open } = setup();
    const store = await open();
    await store.set('session/abc/inbox', '12 unread', { ttlMs: 5 * MINUTE });
    clock.set(new Date(clock.now().getTime() + 120 * MINUTE));
    expect((await store.get('session/abc/inbox'))?.value).toBe('12 unread');
    clock.set(new Date(clock.now().getTime() - 240 * MINUTE));
    clock.advance(5 * MINUTE);
    expect(await store.get('session/abc/inbox')).toBeUndefined();
  });

  it("never rewrites another namespace's file: a small write does not carry a large session", async () => {
    const { dir, open } = setup();
    const store = await open();
    for (let i = 0; i < 5; i++) await store.set(`session/big/blob-${i}`, 'x'.repeat(1_000_000));
    const big = statSync(join(dir, 'session', 'big.json'));
    await store.set('session/small/note', 'tiny');
    expect(statSync(join(dir, 'session', 'small.json')).size).toBeLessThan(1_000);
    const after = statSync(join(dir, 'session', 'big.json'));
    expect([after.ino, after.mtimeMs]).toEqual([big.ino, big.mtimeMs]);
  });

  it('refuses a save past the per-namespace size cap with INVALID_INPUT and writes nothing', async () => {
    const { open } = setup({ maxCharsPerNamespace: 2_000_000 });
    const store = await open();
    await store.set('session/abc/one', 'x'.repeat(1_000_000));
    await store.set('session/abc/two', 'x'.repeat(1_000_000));
    await expect(store.set('session/abc/three', 'y')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('maxCharsPerNamespace'),
    });
    expect(await store.get('session/abc/three')).toBeUndefined();
    await expect(store.set('session/abc/huge', 'x'.repeat(1_000_001))).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect((await store.set('session/other/three', 'y')).value).toBe('y');
  });

  it('splits a file of the one-file-per-kind layout into namespace files, losing nothing', async () => {
    const { dir, open } = setup();
    const entry = (key: string, value: string) => ({
      key,
      value,
      storedAt: '2026-03-01T12:00:00.000Z',
      expiresAt: '2026-03-01T13:00:00.000Z',
      tags: [],
    });
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'session.json'),
      JSON.stringify({ schemaVersion: 1, entries: [entry('session/abc/a', '1'), entry('session/def/b', '2')] }),
    );
    const store = await open();
    expect((await store.list()).map((item) => [item.key, item.value])).toEqual([
      ['session/abc/a', '1'],
      ['session/def/b', '2'],
    ]);
    expect(existsSync(join(dir, 'session.json'))).toBe(false);
    expect(keysIn(dir, 'session/abc')).toEqual(['session/abc/a']);
    expect(keysIn(dir, 'session/def')).toEqual(['session/def/b']);
  });
});

describe('FileWorkingMemory periodic sweep', () => {
  it('runs on its interval and rewrites the file without the expired entry', async () => {
    const { dir, clock, open } = setup();
    const store = await open({ sweepIntervalMs: 20 });
    await store.set('session/abc/short', 'gone soon', { ttlMs: MINUTE });
    await store.set('session/abc/long', 'stays', { ttlMs: 60 * MINUTE });
    expect(keysIn(dir, 'session/abc')).toEqual(['session/abc/short', 'session/abc/long']);
    clock.advance(2 * MINUTE);
    await vi.waitFor(() => expect(keysIn(dir, 'session/abc')).toEqual(['session/abc/long']), { timeout: 5_000, interval: 10 });
  });

  it('sweeps on each tick until stopSweep() and never after', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { dir, clock, open } = setup();
    const store = await open({ sweepIntervalMs: 20 });
    await store.set('session/abc/first', '1', { ttlMs: MINUTE });
    await store.set('session/abc/keep', 'k', { ttlMs: 60 * MINUTE });
    clock.advance(2 * MINUTE);
    vi.advanceTimersByTime(20);
    // The tick queued a sweep; reads do not wait for the write queue, so wait for the file.
    await vi.waitFor(() => expect(keysIn(dir, 'session/abc')).toEqual(['session/abc/keep']));

    await store.set('session/abc/second', '2', { ttlMs: MINUTE });
    const before = statSync(join(dir, 'session', 'abc.json'));
    store.stopSweep();
    expect(vi.getTimerCount()).toBe(0);
    clock.advance(2 * MINUTE);
    vi.advanceTimersByTime(1_000);
    await store.list();
    expect(keysIn(dir, 'session/abc')).toEqual(['session/abc/keep', 'session/abc/second']);
    expect(statSync(join(dir, 'session', 'abc.json')).mtimeMs).toBe(before.mtimeMs);
    expect(await store.sweep()).toBe(1);
    expect(keysIn(dir, 'session/abc')).toEqual(['session/abc/keep']);
  });

  it('stops the sweep on close and refuses calls afterwards', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { dir, clock, open } = setup();
    const store = await open({ sweepIntervalMs: 20 });
    await store.set('session/abc/short', '1', { ttlMs: MINUTE });
    expect(vi.getTimerCount()).toBe(1);
    await store.close();
    expect(vi.getTimerCount()).toBe(0);
    clock.advance(2 * MINUTE);
    vi.advanceTimersByTime(1_000);
    expect(keysIn(dir, 'session/abc')).toEqual(['session/abc/short']);
    await expect(store.sweep()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    await expect(store.set('session/abc/x', 'v')).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });

  it('lets queued writes finish before close resolves', async () => {
    const { dir, open } = setup();
    const store = await open();
    const writes = Array.from({ length: 10 }, (_, i) => store.set(`session/abc/k${i}`, `v${i}`));
    await store.close();
    expect(keysIn(dir, 'session/abc')).toHaveLength(10);
    await expect(Promise.all(writes)).resolves.toHaveLength(10);
  });
});

describe('FileWorkingMemory shared data directory', () => {
  it('loses no entries when two instances write the same group in parallel', async () => {
    const { open } = setup();
    const a = await open();
    const b = await open();
    expect(await a.list()).toEqual([]);
    expect(await b.list()).toEqual([]);
    await Promise.all(Array.from({ length: 15 }, (_, i) => [a.set(`session/a/k${i}`, `a${i}`), b.set(`session/b/k${i}`, `b${i}`)]).flat());
    await vi.waitFor(async () => expect(await b.list('session/a')).toHaveLength(15), { timeout: 5_000, interval: 50 });
    await a.close();
    await b.close();

    const reopened = await open();
    const keys = (await reopened.list('session')).map((entry) => entry.key);
    expect(keys).toHaveLength(30);
    expect(keys).toEqual(expect.arrayContaining(['session/a/k0', 'session/a/k14', 'session/b/k0', 'session/b/k14']));
  });

  it('answers reads while a write waits for the lock another process holds', async () => {
    const { dir, open } = setup();
    const a = await open();
    await a.set('session/x/first', '1');
    const holder = new DirectoryLock(dir);
    let release: (() => void) | undefined;
    const held = holder.run(() => new Promise<void>((resolve) => (release = resolve)));
    await vi.waitFor(() => expect(release).toBeDefined());
    const write = a.set('session/x/second', '2');
    expect((await a.list('session/x')).map((entry) => entry.key)).toEqual(['session/x/first']);
    expect(await a.get('session/x/first')).toMatchObject({ value: '1' });
    release!();
    await held;
    await write;
    expect((await a.list('session/x')).map((entry) => entry.key)).toEqual(['session/x/first', 'session/x/second']);
  });

  it('sees namespaces another instance created, whether it lists one namespace, one kind or everything', async () => {
    const { open } = setup();
    const a = await open();
    const b = await open();
    expect(await b.list('session/new')).toEqual([]);
    expect(await b.list('patrol')).toEqual([]);
    await a.set('session/new/k', 'v');
    await a.set('patrol/inbox/k', 'v');
    await vi.waitFor(async () => expect((await b.list('session/new')).map((entry) => entry.key)).toEqual(['session/new/k']), {
      timeout: 5_000,
      interval: 50,
    });
    await vi.waitFor(async () => expect((await b.list('patrol')).map((entry) => entry.key)).toEqual(['patrol/inbox/k']), {
      timeout: 5_000,
      interval: 50,
    });
    expect((await b.list()).map((entry) => entry.key)).toEqual(['patrol/inbox/k', 'session/new/k']);
  });

  it('sees a delete made by another instance', async () => {
    const { open } = setup();
    const a = await open();
    const b = await open();
    await a.set('patrol/heartbeat/alert', 'disk full');
    await vi.waitFor(async () => expect(await b.get('patrol/heartbeat/alert')).toBeDefined(), { timeout: 5_000, interval: 50 });
    expect(await a.delete('patrol/heartbeat/alert')).toBe(true);
    await vi.waitFor(async () => expect(await b.get('patrol/heartbeat/alert')).toBeUndefined(), { timeout: 5_000, interval: 50 });
    expect(await b.delete('patrol/heartbeat/alert')).toBe(false);
  });

  it('works across real processes, which exit on their own while the hourly sweep is scheduled', async () => {
    const { dataPath, open } = setup();
    const run = childWriter([
      'await Promise.all(Array.from({ length: 10 }, (_, i) => store.set(`${arg}/k${i}`, `v${i}`, { ttlMs: 3_600_000 })));',
    ]);
    await Promise.all([run(dataPath, 'session/p1'), run(dataPath, 'session/p2')]);

    const keys = (await (await open()).list('session')).map((entry) => entry.key);
    expect(keys).toHaveLength(20);
    expect(keys).toEqual(expect.arrayContaining(['session/p1/k0', 'session/p1/k9', 'session/p2/k0', 'session/p2/k9']));
  });

  it("sees another process's change to a namespace it already read, and a namespace it created in a kind it lists", async () => {
    const { dataPath, open } = setup();
    const reader = await open();
    await reader.set('session/shared/note', 'v1', { ttlMs: 3_600_000 });
    expect((await reader.list('patrol')).map((entry) => entry.key)).toEqual([]);
    expect(await reader.get('session/shared/note')).toMatchObject({ value: 'v1' });

    // The same length: the file's size does not change, only its contents (and inode).
    await childWriter([
      "await store.set('session/shared/note', arg, { ttlMs: 3_600_000 });",
      "await store.set('patrol/inbox/unread', 'three', { ttlMs: 3_600_000 });",
    ])(dataPath, 'v2');

    await vi.waitFor(async () => expect(await reader.get('session/shared/note')).toMatchObject({ value: 'v2' }), {
      timeout: 5_000,
      interval: 50,
    });
    expect((await reader.list('session/shared')).map((entry) => entry.value)).toEqual(['v2']);
    await vi.waitFor(async () => expect((await reader.list('patrol')).map((entry) => entry.key)).toEqual(['patrol/inbox/unread']), {
      timeout: 5_000,
      interval: 50,
    });
  });

  // A turn's reads (forTurn lists three namespaces) must not wait for a thread of the pool that
  // the conversation log's fsyncs and the recall events' appends keep busy. Reads at a FIFO with
  // no writer hold every thread of the pool here, deterministically, until the test lets them go.
  it.skipIf(process.platform === 'win32')(
    'answers a read of files nothing changed without the thread pool, when other file work fills it',
    async () => {
      const { dataPath, open } = setup();
      const store = await open();
      await store.set('session/busy/note', 'v', { ttlMs: 3_600_000 });
      await store.set('patrol/inbox/unread', 'three', { ttlMs: 3_600_000 });
      // Past the refresh interval, so the reads below look at the files.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const fifo = join(dataPath, 'pool-blocker');
      execFileSync('mkfifo', [fifo]);
      const poolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4;
      const blockers = Array.from({ length: poolSize }, () => openFile(fifo, 'r'));
      try {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const answers: unknown[] = [];
        void store.list('session/busy').then((entries) => answers.push(entries.map((entry) => entry.key)));
        void store.list('patrol').then((entries) => answers.push(entries.map((entry) => entry.key)));
        await new Promise((resolve) => setImmediate(resolve));
        expect(answers).toEqual([['session/busy/note'], ['patrol/inbox/unread']]);
      } finally {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
        for (const blocker of blockers) await (await blocker).close();
      }
    },
  );
});

describe('FileWorkingMemory options', () => {
  const cases: Array<[field: string, options: Record<string, unknown>]> = [
    ['dataPath', { dataPath: '' }],
    ['dataPath', { dataPath: 42 }],
    ['defaultTtlMs', { defaultTtlMs: 0 }],
    ['defaultTtlMs', { defaultTtlMs: 1.5 }],
    ['maxEntriesPerNamespace', { maxEntriesPerNamespace: -1 }],
    ['sweepIntervalMs', { sweepIntervalMs: -1 }],
    ['sweepIntervalMs', { sweepIntervalMs: 2 ** 31 }],
    ['sweepIntervalMs', { sweepIntervalMs: Number.NaN }],
    ['clock', { clock: { now: 'today' } }],
  ];
  for (const [field, bad] of cases) {
    it(`refuses ${field} = ${JSON.stringify(bad[field]) ?? String(bad[field])} with INVALID_OPTIONS and creates nothing`, () => {
      const dataPath = join(root, `bad-options-${++counter}`);
      const create = () => new FileWorkingMemory({ dataPath, ...bad } as unknown as FileWorkingMemoryOptions);
      expect(create).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(field) }));
      expect(existsSync(dataPath)).toBe(false);
    });
  }

  it('refuses a missing options object', () => {
    expect(() => new FileWorkingMemory(undefined as unknown as FileWorkingMemoryOptions)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });
});
