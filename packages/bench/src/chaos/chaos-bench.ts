// pnpm bench:chaos — writes acknowledged under faults, and how many were lost (SPEC B2).
// One agent process saves memories, working-memory entries and turns while a dreamer process
// runs dream cycles back to back, both on one data directory, for CHAOS_SECONDS (default 180).
// Each child's wall clock jumps by up to ±2 hours every 0.5 s and its disk fails 3 % of writes
// with ENOSPC or EIO in bursts; every 2–6 s one of the two is killed with SIGKILL and
// restarted. A write counts as acknowledged once its call returned (the child prints it only
// then). At the end a fresh process-free Reverie recovers the data directory and looks for every
// acknowledged write. Seeded by CHAOS_SEED, so a run can be replayed.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createReverie } from 'reverie';

const SECONDS = Number(process.env.CHAOS_SECONDS ?? 180);
let seed = Number(process.env.CHAOS_SEED ?? 20260315) >>> 0;
const random = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};

const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, 'chaos-child.ts');
const env = { ...process.env, TSX_TSCONFIG_PATH: resolve(here, '..', '..', '..', '..', 'tsconfig.json') };
const dataPath = mkdtempSync(join(tmpdir(), 'reverie-chaos-'));

type Ack =
  | { ack: 'memory'; id: string; content: string }
  | { ack: 'working-memory'; key: string; value: string }
  | { ack: 'turn'; sessionId: string; message: string };

const acks: Ack[] = [];
const failures = new Map<string, number>();
const raw: string[] = [];
const kills = { agent: 0, dreamer: 0 };
let jumps = 0;
let cycles = 0;

function start(mode: 'agent' | 'dreamer'): ChildProcess {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, mode, dataPath, String(Math.floor(random() * 2 ** 31))], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let buffer = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      if ('ack' in parsed) acks.push(parsed as unknown as Ack);
      else if ('fail' in parsed) failures.set(String(parsed.fail), (failures.get(String(parsed.fail)) ?? 0) + 1);
      else if ('raw' in parsed) raw.push(String(parsed.raw));
      else if ('jump' in parsed) jumps++;
      else if ('cycle' in parsed) cycles++;
    }
  });
  let stderr = '';
  proc.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  proc.on('exit', (code, signal) => {
    if (signal === null && code !== 0) raw.push(`${mode} exited with code ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  });
  return proc;
}

const running: Record<'agent' | 'dreamer', ChildProcess> = { agent: start('agent'), dreamer: start('dreamer') };
const started = performance.now();
console.log(`chaos: ${SECONDS} s on ${dataPath}; SIGKILL every 2–6 s, clock jumps ±2 h, 3 % ENOSPC/EIO bursts`);

while (performance.now() - started < SECONDS * 1000) {
  await new Promise((r) => setTimeout(r, 2000 + random() * 4000));
  const victim = random() < 0.6 ? 'agent' : 'dreamer';
  const proc = running[victim];
  await new Promise<void>((done) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return done();
    proc.once('exit', () => done());
    proc.kill('SIGKILL');
  });
  kills[victim]++;
  running[victim] = start(victim);
}
for (const proc of Object.values(running)) {
  await new Promise<void>((done) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return done();
    proc.once('exit', () => done());
    proc.kill('SIGKILL');
  });
}

// Verification, with no faults and the real clock.
const reverie = createReverie({ dataPath }).withMemory().withWorkingMemory().withConversationLog().withDreaming({ enabled: true }).build();
const recovered = await reverie.dreams.recover();
const lost = { memory: 0, 'working-memory': 0, turn: 0 };
const counted = { memory: 0, 'working-memory': 0, turn: 0 };
const turnsBySession = new Map<string, Set<string>>();
for (const ack of acks) {
  counted[ack.ack]++;
  if (ack.ack === 'memory') {
    const entry = await reverie.memory!.get(ack.id);
    if (entry?.content !== ack.content) lost.memory++;
  } else if (ack.ack === 'working-memory') {
    const entry = await reverie.workingMemory!.get(ack.key);
    if (entry?.value !== ack.value) lost['working-memory']++;
  } else {
    let logged = turnsBySession.get(ack.sessionId);
    if (logged === undefined) {
      logged = new Set((await reverie.conversationLog!.read({ sessionId: ack.sessionId })).map((turn) => turn.content));
      turnsBySession.set(ack.sessionId, logged);
    }
    if (!logged.has(ack.message)) lost.turn++;
  }
}
await reverie.close();
rmSync(dataPath, { recursive: true, force: true });

const totalAcks = acks.length;
const totalLost = lost.memory + lost['working-memory'] + lost.turn;
console.log('');
console.log(`| figure | value |`);
console.log(`| --- | --- |`);
console.log(`| duration | ${SECONDS} s (seed ${process.env.CHAOS_SEED ?? 20260315}) |`);
console.log(`| SIGKILLs | ${kills.agent + kills.dreamer} (agent ${kills.agent}, dreamer ${kills.dreamer}) |`);
console.log(`| clock jumps (±2 h) | ${jumps} |`);
console.log(`| dream cycles completed | ${cycles}; runs recovered at the end: ${recovered.length} |`);
console.log(
  `| calls that failed with a ReverieError (by code) | ${[...failures].map(([code, n]) => `${code} ${n}`).join(', ') || 'none'} |`,
);
console.log(`| failures that were not ReverieErrors | ${raw.length} |`);
console.log(
  `| acknowledged writes | ${totalAcks} (memory ${counted.memory}, working memory ${counted['working-memory']}, turns ${counted.turn}) |`,
);
console.log(`| lost | ${totalLost} (memory ${lost.memory}, working memory ${lost['working-memory']}, turns ${lost.turn}) |`);
for (const line of raw.slice(0, 5)) console.log(`  not a ReverieError: ${line}`);
process.exitCode = totalLost === 0 && raw.length === 0 ? 0 : 1;
