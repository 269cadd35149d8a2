// pnpm bench:load — the runtime under sustained turn load (issue 14, item 4).
// A Reverie over BENCH_LOAD_SIZE entries (default 100k) with long-term memory, working memory,
// the conversation log and recall events (BENCH_LOAD_RUNTIME=memory: long-term memory and recall
// events only, the configuration of the first version of this bench) receives BENCH_LOAD_RATE
// turns per second (default 500) for BENCH_LOAD_SECONDS (default 60) through
// `reverie.context.forTurn`, open-loop (see open-loop.ts). In the same run and at the same rate,
// a baseline: the bare `memory.search` of the turn's message. Then a saturation sweep over
// BENCH_LOAD_SWEEP (default 250,500,1000,2000 turns/s, BENCH_LOAD_SWEEP_SECONDS each, default 15)
// reports the highest rate whose p99 stays within 25 ms, for forTurn and for the baseline.
//
// Nothing forces a collection inside a measured window (the first version called gc() every 5 s
// to sample live heap, and those pauses landed in the latencies): heap is sampled as it is, live
// heap after a forced collection only between windows. BENCH_LOAD_FORCED_GC=1 brings the old
// sampling back, to measure what it cost.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileConversationLog, FileMemoryStore, FileWorkingMemory } from '@reverie/file-store';
import { createReverie, type Reverie } from 'reverie';
import { fmt, percentile } from '../measure';
import { writeMemoryFixture } from '../memory-fixture';
import { syntheticQuery } from '../synthetic-memory';
import { gcSummary, type LoadResult, MAX_IN_FLIGHT, runOpenLoop } from './open-loop';
import { StageTimer } from './stage-timer';

const SIZE = Number(process.env.BENCH_LOAD_SIZE ?? 100_000);
const RATE = Number(process.env.BENCH_LOAD_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const SWEEP = (process.env.BENCH_LOAD_SWEEP ?? '250,500,1000,2000').split(',').filter(Boolean).map(Number);
const SWEEP_SECONDS = Number(process.env.BENCH_LOAD_SWEEP_SECONDS ?? 15);
const RUNTIME = process.env.BENCH_LOAD_RUNTIME === 'memory' ? 'memory' : 'full';
const FORCED_GC = process.env.BENCH_LOAD_FORCED_GC === '1';
const TARGET_P99_MS = 25;
const WARM_UP_S = 5;
const SESSIONS = 500;
const MiB = 1024 * 1024;
const collect = (globalThis as { gc?: () => void }).gc;

function liveHeapMiB(): number {
  collect?.();
  return process.memoryUsage().heapUsed / MiB;
}

function line(name: string, result: LoadResult, baseline?: LoadResult): string {
  const l = result.latencies;
  const ratio = (p: number) => (baseline ? ` (×${fmt(percentile(l, p) / percentile(baseline.latencies, p), 1)})` : '');
  return `| ${name} | ${result.rate}/s | ${fmt(result.achieved, 0)}/s | ${result.errors} / ${result.dropped} | ${fmt(percentile(l, 50))} ms${ratio(50)} | ${fmt(percentile(l, 95))} ms${ratio(95)} | ${fmt(percentile(l, 99))} ms${ratio(99)} | ${fmt(l.at(-1) ?? Number.NaN, 1)} ms | ${fmt(result.loopDelayP99, 1)} ms |`;
}

const HEADER = '| load | rate asked | achieved | errors / dropped | p50 | p95 | p99 | max | event-loop delay p99 |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |';

async function seedWorkingMemory(reverie: Reverie): Promise<void> {
  const wm = reverie.workingMemory;
  if (!wm) return;
  const ttlMs = 6 * 60 * 60 * 1000;
  for (let s = 0; s < SESSIONS; s++) await wm.set(`session/load-${s}/notes`, `Session ${s} is about ${syntheticQuery(s)}.`, { ttlMs });
  await wm.set('patrol/inbox/unread', 'Three unread messages from the billing team.', { ttlMs });
  await wm.set('subagent/research/postgres-index', 'Outline: backups, replicas, upgrade path.', { ttlMs });
}

async function main(): Promise<void> {
  console.log(`# bench:load — node ${process.version}, ${new Date().toISOString()}`);
  const runtime = RUNTIME === 'full' ? 'long-term memory, working memory, conversation log, recall events' : 'long-term memory, recall events';
  console.log(`${SIZE.toLocaleString('en')} entries, ${SESSIONS} sessions; forTurn through the runtime (${runtime}); open-loop, latency from each turn's planned start; in-flight cap ${MAX_IN_FLIGHT}`);
  console.log(`collection inside measured windows: ${FORCED_GC ? 'FORCED every 5 s (BENCH_LOAD_FORCED_GC=1, the old sampling)' : 'none forced (heap sampled as it is)'}`);
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-load-'));
  const stages = new StageTimer();
  try {
    writeMemoryFixture(dataPath, SIZE, new Date('2026-11-01T00:00:00Z'));
    const memory = new FileMemoryStore({ dataPath });
    let builder = createReverie({ dataPath })
      .withMemory({ store: stages.wrap('memory', memory, ['search']) })
      .withDreaming({ enabled: false });
    let owned: Array<{ close(): Promise<void> }> = [memory];
    if (RUNTIME === 'full') {
      const workingMemory = new FileWorkingMemory({ dataPath });
      const conversationLog = new FileConversationLog({ dataPath });
      owned = [...owned, workingMemory, conversationLog];
      builder = builder
        .withWorkingMemory({ store: stages.wrap('workingMemory', workingMemory, ['list']) })
        .withConversationLog({ store: stages.wrap('conversationLog', conversationLog, ['append']) });
    }
    const reverie = builder.build();
    const openStart = performance.now();
    await memory.search({ text: syntheticQuery(0) });
    console.log(`cold open + first search: ${fmt(performance.now() - openStart, 0)} ms`);
    await seedWorkingMemory(reverie);

    const baseline = (i: number) => memory.search({ text: syntheticQuery(i), maxResults: 8 });
    const turn = async (i: number) => {
      const started = performance.now();
      await reverie.context.forTurn({ sessionId: `load-${i % SESSIONS}`, message: syntheticQuery(i) });
      if (stages.enabled) stages.add('forTurn (whole)', performance.now() - started);
    };
    const forcedSampler = () => (FORCED_GC ? setInterval(() => liveHeapMiB(), 5000) : undefined);
    const measure = async (rate: number, seconds: number, request: (i: number) => Promise<unknown>) => {
      const sampler = forcedSampler();
      try {
        return await runOpenLoop(rate, seconds, request);
      } finally {
        clearInterval(sampler);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };

    await runOpenLoop(RATE, WARM_UP_S, turn);
    const heapBefore = liveHeapMiB();
    console.log(`\n## ${RATE} turns/s for ${SECONDS} s (after a ${WARM_UP_S} s warm-up), baseline first; ratios are forTurn / baseline`);
    const base = await measure(RATE, SECONDS, baseline);
    stages.enabled = true;
    const main = await measure(RATE, SECONDS, turn);
    stages.enabled = false;
    const heapAfter = liveHeapMiB();
    console.log(`\n${HEADER}\n${line('baseline: memory.search', base)}\n${line('forTurn', main, base)}`);
    for (const [name, result] of [['baseline', base], ['forTurn', main]] as const) {
      console.log(`\n${name}: GC pauses ${gcSummary(result.gc) || 'none'}; slowest 1 % overlapping a GC pause ≥ 1 ms: ${fmt(result.tailOverlappingGc * 100, 0)} %; event-loop delay max ${fmt(result.loopDelayMax, 1)} ms`);
    }
    const heap = main.heapMiB;
    console.log(`\nheap used during the forTurn window (not collected): ${fmt(Math.min(...heap), 0)}–${fmt(Math.max(...heap), 0)} MiB; live heap (after a full collection) before → after both windows: ${fmt(heapBefore, 0)} → ${fmt(heapAfter, 0)} MiB`);
    console.log(`\nforTurn by stage (each store call as forTurn awaits it):\n\n${stages.table()}`);

    if (SWEEP.length > 0) {
      console.log(`\n## saturation sweep: ${SWEEP.join(', ')} turns/s, ${SWEEP_SECONDS} s each, baseline then forTurn at each rate\n\n${HEADER}`);
      let bestTurn: number | undefined;
      let bestBase: number | undefined;
      for (const rate of SWEEP) {
        const b = await measure(rate, SWEEP_SECONDS, baseline);
        const t = await measure(rate, SWEEP_SECONDS, turn);
        console.log(line('baseline', b));
        console.log(line('forTurn', t, b));
        const within = (r: LoadResult) => r.dropped === 0 && r.errors === 0 && percentile(r.latencies, 99) <= TARGET_P99_MS;
        if (within(t)) bestTurn = Math.max(bestTurn ?? 0, rate);
        if (within(b)) bestBase = Math.max(bestBase ?? 0, rate);
      }
      console.log(`\nsaturation point (highest rate swept with p99 ≤ ${TARGET_P99_MS} ms, no drop): forTurn ${bestTurn ?? 'none'} turns/s, baseline ${bestBase ?? 'none'} searches/s`);
    }
    await reverie.close();
    for (const store of owned) await store.close();
  } finally {
    rmSync(dataPath, { recursive: true, force: true });
  }
}

await main();
