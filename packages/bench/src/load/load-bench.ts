// pnpm bench:load — the runtime under sustained search load (issue: hardening, item 5).
// A Reverie over BENCH_LOAD_SIZE entries (default 100k) receives BENCH_LOAD_RATE turns per
// second (default 1000) for BENCH_LOAD_SECONDS (default 60) through `reverie.context.forTurn`,
// scheduled open-loop: each request starts at its planned time whether or not earlier ones have
// finished, so a slow server shows as queueing latency, not as a lower request rate. Latency is
// measured from the planned start. Heap and RSS are sampled every 5 s; growth is measured from
// the end of the warm-up (10 s) to the end, each after a full collection.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReverie } from 'reverie';
import { fmt, percentile } from '../measure';
import { writeMemoryFixture } from '../memory-fixture';
import { syntheticQuery } from '../synthetic-memory';

const SIZE = Number(process.env.BENCH_LOAD_SIZE ?? 100_000);
const RATE = Number(process.env.BENCH_LOAD_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const WARM_UP_S = Math.min(10, SECONDS / 3);
/** Requests in flight beyond this are dropped and counted as errors (the server is overwhelmed). */
const MAX_IN_FLIGHT = 10_000;
const SESSIONS = 500;
const TICK_MS = 10;
const MiB = 1024 * 1024;

interface Sample {
  atS: number;
  heapMiB: number;
  rssMiB: number;
}

async function main(): Promise<void> {
  console.log(`# bench:load — node ${process.version}, ${new Date().toISOString()}`);
  console.log(`${SIZE.toLocaleString('en')} entries, ${RATE} turns/s for ${SECONDS} s, open-loop; forTurn (recall search + context) through the runtime`);
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-load-'));
  try {
    writeMemoryFixture(dataPath, SIZE, new Date('2026-11-01T00:00:00Z'));
    const reverie = createReverie({ dataPath }).withMemory().withDreaming({ enabled: false }).build();
    const openStart = performance.now();
    await reverie.memory!.search({ text: syntheticQuery(0) });
    console.log(`cold open + first search: ${fmt(performance.now() - openStart, 0)} ms`);

    const latencies: number[] = [];
    const samples: Sample[] = [];
    let errors = 0;
    let dropped = 0;
    let inFlight = 0;
    let issued = 0;
    const total = Math.round(RATE * SECONDS);
    const start = performance.now();
    // With --expose-gc (the bench:load script sets it) each sample follows a full collection, so
    // heap figures are live memory, not garbage waiting for the collector.
    const collect = (globalThis as { gc?: () => void }).gc;
    const sample = () => {
      collect?.();
      const usage = process.memoryUsage();
      samples.push({ atS: (performance.now() - start) / 1000, heapMiB: usage.heapUsed / MiB, rssMiB: usage.rss / MiB });
    };
    sample();
    const sampler = setInterval(sample, 5000);

    await new Promise<void>((done) => {
      const tick = () => {
        const elapsed = performance.now() - start;
        const due = Math.min(total, Math.floor((elapsed / 1000) * RATE));
        for (; issued < due; issued++) {
          const planned = start + (issued / RATE) * 1000;
          if (inFlight >= MAX_IN_FLIGHT) {
            dropped++;
            continue;
          }
          inFlight++;
          const i = issued;
          reverie.context
            .forTurn({ sessionId: `load-${i % SESSIONS}`, message: syntheticQuery(i) })
            .then(
              () => latencies.push(performance.now() - planned),
              () => errors++,
            )
            .finally(() => {
              inFlight--;
              if (issued >= total && inFlight === 0) done();
            });
        }
        if (issued < total) setTimeout(tick, TICK_MS);
        else if (inFlight === 0) done();
      };
      tick();
    });
    const wallS = (performance.now() - start) / 1000;
    clearInterval(sampler);
    sample();
    await reverie.close();

    latencies.sort((a, b) => a - b);
    const warm = samples.filter((s) => s.atS >= WARM_UP_S);
    const first = warm[0] ?? samples[0]!;
    const last = samples.at(-1)!;
    console.log(`\ncompleted ${latencies.length.toLocaleString('en')} of ${total.toLocaleString('en')} turns in ${fmt(wallS, 1)} s (${fmt(latencies.length / wallS, 0)} turns/s achieved)`);
    console.log(`errors: ${errors}, dropped (over ${MAX_IN_FLIGHT} in flight): ${dropped}`);
    console.log(`latency from planned start: p50 ${fmt(percentile(latencies, 50))} ms, p95 ${fmt(percentile(latencies, 95))} ms, p99 ${fmt(percentile(latencies, 99))} ms, max ${fmt(latencies.at(-1) ?? Number.NaN)} ms`);
    console.log('\n| t (s) | heap used (MiB) | RSS (MiB) |\n| ---: | ---: | ---: |');
    for (const s of samples) console.log(`| ${fmt(s.atS, 0)} | ${fmt(s.heapMiB, 0)} | ${fmt(s.rssMiB, 0)} |`);
    console.log(`\nafter the ${fmt(WARM_UP_S, 0)} s warm-up: heap ${fmt(first.heapMiB, 0)} → ${fmt(last.heapMiB, 0)} MiB (${fmt(last.heapMiB - first.heapMiB, 0)} MiB), RSS ${fmt(first.rssMiB, 0)} → ${fmt(last.rssMiB, 0)} MiB`);
  } finally {
    rmSync(dataPath, { recursive: true, force: true });
  }
}

await main();
