// pnpm bench:load — the runtime under sustained turn load (SPEC B12).
// BENCH_LOAD_SIZE entries (default 100k) and 500 sessions. `reverie.context.forTurn` is called
// open-loop (see open-loop.ts) at BENCH_LOAD_RATE turns per second (default 500) for
// BENCH_LOAD_SECONDS (default 60) through the "full" runtime: long-term memory, working memory,
// the conversation log and recall events (BENCH_LOAD_RUNTIME=memory: long-term memory and recall
// events only, the configuration of the first version of this bench and of its first figures).
// Printed beside it, from the same process at the same rate: a baseline, the bare `memory.search`
// of the turn's message, and ratios to it; per-stage timings; GC pauses.
// Then what each part of the turn path adds (BENCH_LOAD_CAUSE_SECONDS each, default 15; 0 skips),
// including the old bench's forced gc() every 5 s, and a saturation sweep over BENCH_LOAD_SWEEP
// (default 250,500,1000,2000 turns/s, BENCH_LOAD_SWEEP_SECONDS each, default 15) that reports the
// highest rate whose p99 stays within 25 ms.
//
// Nothing forces a collection inside a measured window (the first version called gc() every 5 s
// to sample live heap, and those pauses landed in the latencies): heap is sampled as it is, live
// heap after a forced collection only between windows. BENCH_LOAD_FORCED_GC=1 brings the old
// sampling back into the main windows.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileConversationLog, FileMemoryStore, FileWorkingMemory } from '@reverie/file-store';
import { createReverie, type Reverie } from 'reverie';
import { fmt, percentile } from '../measure';
import { writeMemoryFixture } from '../memory-fixture';
import { syntheticQuery } from '../synthetic-memory';
import { gcSummary, type LoadResult, MAX_IN_FLIGHT, runOpenLoop } from './open-loop';
import { StageTimer } from './stage-timer';
import { reportFigure } from '../figures';

const SIZE = Number(process.env.BENCH_LOAD_SIZE ?? 100_000);
const RATE = Number(process.env.BENCH_LOAD_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const SWEEP = (process.env.BENCH_LOAD_SWEEP ?? '250,500,1000,2000').split(',').filter(Boolean).map(Number);
const SWEEP_SECONDS = Number(process.env.BENCH_LOAD_SWEEP_SECONDS ?? 15);
const RUNTIME = (['memory', 'workingMemory'] as const).find((name) => name === process.env.BENCH_LOAD_RUNTIME) ?? 'full';
const FORCED_GC = process.env.BENCH_LOAD_FORCED_GC === '1';
const CAUSE_SECONDS = Number(process.env.BENCH_LOAD_CAUSE_SECONDS ?? 15);
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

/** The machine's load average, which says how much of a wall-clock figure is the machine's. */
function loadAverage(): string {
  return `load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' / ')} (1 / 5 / 15 min)`;
}

/** CPU per request and the thread pool's round trip during a run (see `LoadResult`). */
function costs(result: LoadResult): string {
  const trips = result.poolRoundTrips;
  return `CPU ${fmt(result.cpuMsPerRequest, 3)} ms per request; thread-pool round trip (a promise stat every 10 ms) p50 ${fmt(percentile(trips, 50))} / p99 ${fmt(percentile(trips, 99))} / max ${fmt(trips.at(-1) ?? Number.NaN, 1)} ms`;
}

const HEADER =
  '| load | rate asked | achieved | errors / dropped | p50 | p95 | p99 | max | event-loop delay p99 |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |';

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
  console.log(
    `${SIZE.toLocaleString('en')} entries, ${SESSIONS} sessions; forTurn through the runtime; open-loop, latency from each turn's planned start; in-flight cap ${MAX_IN_FLIGHT}; no collection forced inside a measured window unless said`,
  );
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-load-'));
  const stages = new StageTimer();
  try {
    writeMemoryFixture(dataPath, SIZE, new Date('2026-11-01T00:00:00Z'));
    // One memory store serves every runtime below, so they differ only in what the turn path does.
    const memory = new FileMemoryStore({ dataPath });
    const timedMemory = stages.wrap('memory', memory, ['search']);
    const workingMemory = stages.wrap('workingMemory', new FileWorkingMemory({ dataPath }), ['list']);
    const conversationLog = stages.wrap('conversationLog', new FileConversationLog({ dataPath }), ['append']);
    const runtimes = {
      /** The configuration of the first version of this bench (and of its first figures). */
      memory: createReverie({ dataPath }).withMemory({ store: timedMemory }).withDreaming({ enabled: false }).build(),
      workingMemory: createReverie({ dataPath })
        .withMemory({ store: timedMemory })
        .withWorkingMemory({ store: workingMemory })
        .withDreaming({ enabled: false })
        .build(),
      full: createReverie({ dataPath })
        .withMemory({ store: timedMemory })
        .withWorkingMemory({ store: workingMemory })
        .withConversationLog({ store: conversationLog })
        .withDreaming({ enabled: false })
        .build(),
    };
    const openStart = performance.now();
    await memory.search({ text: syntheticQuery(0) });
    console.log(`cold open + first search: ${fmt(performance.now() - openStart, 0)} ms`);
    await seedWorkingMemory(runtimes.full);

    const baseline = (i: number) => memory.search({ text: syntheticQuery(i), maxResults: 8 });
    const turnOf = (reverie: Reverie) => async (i: number) => {
      const started = performance.now();
      await reverie.context.forTurn({ sessionId: `load-${i % SESSIONS}`, message: syntheticQuery(i) });
      if (stages.enabled) stages.add('forTurn (whole)', performance.now() - started);
    };
    const turn = turnOf(runtimes[RUNTIME]);
    const measure = async (rate: number, seconds: number, request: (i: number) => Promise<unknown>, forcedGc = FORCED_GC) => {
      const sampler = forcedGc ? setInterval(() => liveHeapMiB(), 5000) : undefined;
      try {
        return await runOpenLoop(rate, seconds, request);
      } finally {
        clearInterval(sampler);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };

    await runOpenLoop(RATE, WARM_UP_S, turnOf(runtimes.memory));
    await runOpenLoop(RATE, WARM_UP_S, turn);
    const heapBefore = liveHeapMiB();
    const other = RUNTIME === 'memory' ? 'full' : 'memory';
    console.log(
      `\n## ${RATE} turns/s for ${SECONDS} s each (after a ${WARM_UP_S} s warm-up): baseline, forTurn (${RUNTIME}), forTurn (${other})${FORCED_GC ? ', a full collection FORCED every 5 s' : ''}; ratios are forTurn / baseline; ${loadAverage()}`,
    );
    const base = await measure(RATE, SECONDS, baseline);
    stages.enabled = true;
    const main = await measure(RATE, SECONDS, turn);
    stages.enabled = false;
    const heapAfter = liveHeapMiB();
    const second = await measure(RATE, SECONDS, turnOf(runtimes[other]));
    console.log(
      `\n${loadAverage()}\n\n${HEADER}\n${line('baseline: memory.search', base)}\n${line(`forTurn (${RUNTIME})`, main, base)}\n${line(`forTurn (${other})`, second, base)}`,
    );
    for (const [name, result] of [
      ['baseline', base],
      [`forTurn (${RUNTIME})`, main],
      [`forTurn (${other})`, second],
    ] as const) {
      console.log(
        `\n${name}: GC pauses ${gcSummary(result.gc) || 'none'}; slowest 1 % overlapping a GC pause ≥ 1 ms: ${fmt(result.tailOverlappingGc * 100, 0)} %; event-loop delay max ${fmt(result.loopDelayMax, 1)} ms; ${costs(result)}`,
      );
    }
    const heap = main.heapMiB;
    console.log(
      `\nheap used during the forTurn (${RUNTIME}) window (not collected): ${fmt(Math.min(...heap), 0)}–${fmt(Math.max(...heap), 0)} MiB; live heap (after a full collection) before → after the baseline and forTurn (${RUNTIME}) windows: ${fmt(heapBefore, 0)} → ${fmt(heapAfter, 0)} MiB`,
    );
    console.log(`\nforTurn (${RUNTIME}) by stage (each store call as forTurn awaits it):\n\n${stages.table()}`);
    for (const [name, result] of [
      [RUNTIME, main],
      [other, second],
    ] as const) {
      reportFigure({
        id: `load.forTurnP99.${name}.${SIZE}`,
        label: `forTurn p99 at ${RATE} turns/s, ${SIZE.toLocaleString('en')} entries (${name})`,
        value: percentile(result.latencies, 99),
        unit: 'ms',
        baseline: { label: 'bare memory.search at the same rate', value: percentile(base.latencies, 99) },
        ...(SIZE === 100_000 && RATE === 500 ? { target: { atMost: 25 } } : {}),
      });
    }

    if (CAUSE_SECONDS > 0) {
      console.log(
        `\n## what each part of the turn path adds: ${RATE} turns/s, ${CAUSE_SECONDS} s each, one after another in this process; ${loadAverage()}\n\n${HEADER}`,
      );
      const b = await measure(RATE, CAUSE_SECONDS, baseline);
      console.log(line('baseline: memory.search', b));
      const rows: Array<[string, (i: number) => Promise<unknown>, boolean]> = [
        ['forTurn: memory + recall events', turnOf(runtimes.memory), false],
        ['  + working memory', turnOf(runtimes.workingMemory), false],
        ['  + conversation log (full)', turnOf(runtimes.full), false],
        ['forTurn (memory), gc() every 5 s as the old bench', turnOf(runtimes.memory), true],
      ];
      for (const [name, request, forced] of rows) {
        const r = await measure(RATE, CAUSE_SECONDS, request, forced);
        console.log(
          `${line(name, r, b)} GC ${fmt(
            r.gc.reduce((sum, pause) => sum + pause.duration, 0),
            0,
          )} ms, max ${fmt(Math.max(0, ...r.gc.map((pause) => pause.duration)), 1)} ms; ${costs(r)}`,
        );
      }
    }

    if (SWEEP.length > 0) {
      console.log(
        `\n## saturation sweep: ${SWEEP.join(', ')} turns/s, ${SWEEP_SECONDS} s each, baseline then forTurn (memory) then forTurn (full) at each rate; ${loadAverage()}\n\n${HEADER}`,
      );
      const best = new Map<string, number>();
      const within = (r: LoadResult) => r.dropped === 0 && r.errors === 0 && percentile(r.latencies, 99) <= TARGET_P99_MS;
      for (const rate of SWEEP) {
        const b = await measure(rate, SWEEP_SECONDS, baseline);
        console.log(line('baseline', b));
        if (within(b)) best.set('baseline', rate);
        for (const name of ['memory', 'full'] as const) {
          const t = await measure(rate, SWEEP_SECONDS, turnOf(runtimes[name]));
          console.log(line(`forTurn (${name})`, t, b));
          if (within(t)) best.set(name, rate);
        }
      }
      console.log(
        `\n${loadAverage()}\nsaturation point (highest rate swept with p99 ≤ ${TARGET_P99_MS} ms and nothing dropped): forTurn (full) ${best.get('full') ?? 'none'} turns/s, forTurn (memory) ${best.get('memory') ?? 'none'} turns/s, baseline ${best.get('baseline') ?? 'none'} searches/s`,
      );
      for (const name of ['memory', 'full'] as const) {
        reportFigure({
          id: `load.saturation.${name}.${SIZE}`,
          label: `saturation point: highest rate with forTurn p99 ≤ ${TARGET_P99_MS} ms (${name}, ${SIZE.toLocaleString('en')} entries)`,
          value: best.get(name) ?? 0,
          unit: 'turns/s',
          baseline: { label: 'bare memory.search', value: best.get('baseline') ?? 0 },
        });
      }
    }
    for (const reverie of Object.values(runtimes)) await reverie.close();
    for (const store of [memory, workingMemory, conversationLog]) await store.close();
  } finally {
    rmSync(dataPath, { recursive: true, force: true });
  }
}

await main();
