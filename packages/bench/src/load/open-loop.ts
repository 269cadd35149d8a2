import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { percentile } from '../measure';

/** Requests in flight beyond this are dropped and counted (the server is overwhelmed). */
export const MAX_IN_FLIGHT = 10_000;

export interface GcPause {
  start: number;
  duration: number;
  /** 'minor' (scavenge), 'major' (mark-compact), 'incremental', 'weak' (callbacks). */
  kind: string;
}

export interface LoadResult {
  rate: number;
  seconds: number;
  /** Latencies from each request's planned start, sorted ascending (ms). */
  latencies: number[];
  achieved: number;
  errors: number;
  dropped: number;
  gc: GcPause[];
  /** The event loop's delay, p99 and max (ms), sampled every 1 ms. */
  loopDelayP99: number;
  loopDelayMax: number;
  /** Of the requests slower than the p99, the share whose time in flight overlapped a GC pause. */
  tailOverlappingGc: number;
  /** Heap used (MiB) without forcing a collection, sampled every second. */
  heapMiB: number[];
  /** The process's CPU time (user + system) per completed request (ms). */
  cpuMsPerRequest: number;
  /**
   * Round trips of a promise-based `stat` of a small file, one every 10 ms, sorted (ms): how long
   * file work waits for a thread of libuv's pool and then for the event loop to take its result.
   */
  poolRoundTrips: number[];
}

const PROBE_FILE = fileURLToPath(import.meta.url);
const PROBE_EVERY_MS = 10;

const GC_KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak' };

/**
 * Calls `request(i)` at `rate` per second for `seconds`, open-loop: each request starts at its
 * planned time whether or not earlier ones finished, and its latency is measured from that
 * planned time, so queueing counts. The issuer sleeps until the next planned start (not a fixed
 * tick), so it adds at most the timer's own lateness. Nothing here forces a collection: heap is
 * sampled as it is, GC pauses are observed as they happen.
 */
export async function runOpenLoop(rate: number, seconds: number, request: (i: number) => Promise<unknown>): Promise<LoadResult> {
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const spans: Array<[number, number]> = [];
  const gc: GcPause[] = [];
  const heapMiB: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind ?? 0;
      gc.push({ start: entry.startTime, duration: entry.duration, kind: GC_KINDS[kind] ?? String(kind) });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  let errors = 0;
  let dropped = 0;
  let inFlight = 0;
  let issued = 0;
  const start = performance.now();
  const heapTimer = setInterval(() => heapMiB.push(process.memoryUsage().heapUsed / 1024 / 1024), 1000);
  const poolRoundTrips: number[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const sent = performance.now();
      await stat(PROBE_FILE);
      poolRoundTrips.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
  })();
  const cpuBefore = process.cpuUsage();

  await new Promise<void>((done) => {
    const finish = () => {
      if (issued >= total && inFlight === 0) done();
    };
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - start) / 1000) * rate) + 1);
      for (; issued < due; issued++) {
        const planned = start + (issued / rate) * 1000;
        if (inFlight >= MAX_IN_FLIGHT) {
          dropped++;
          continue;
        }
        inFlight++;
        request(issued)
          .then(
            () => {
              const end = performance.now();
              latencies.push(end - planned);
              spans.push([planned, end]);
            },
            () => errors++,
          )
          .finally(() => {
            inFlight--;
            finish();
          });
      }
      if (issued < total) setTimeout(tick, Math.max(0, start + (issued / rate) * 1000 - performance.now()));
      else finish();
    };
    tick();
  });
  const wallS = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(heapTimer);
  probing = false;
  await probe;
  loop.disable();
  // Let the observer deliver the last entries.
  await new Promise((resolve) => setImmediate(resolve));
  observer.disconnect();

  latencies.sort((a, b) => a - b);
  const p99 = percentile(latencies, 99);
  const tail = spans.filter(([planned, end]) => end - planned >= p99);
  const pauses = gc.filter((pause) => pause.duration >= 1);
  const overlapping = tail.filter(([planned, end]) =>
    pauses.some((pause) => pause.start < end && pause.start + pause.duration > planned),
  ).length;
  return {
    rate,
    seconds,
    latencies,
    achieved: latencies.length / wallS,
    errors,
    dropped,
    gc,
    loopDelayP99: loop.percentile(99) / 1e6,
    loopDelayMax: loop.max / 1e6,
    tailOverlappingGc: tail.length === 0 ? 0 : overlapping / tail.length,
    heapMiB,
    cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / Math.max(1, latencies.length),
    poolRoundTrips: poolRoundTrips.sort((a, b) => a - b),
  };
}

/** GC pauses of a run, summed by kind. */
export function gcSummary(pauses: readonly GcPause[]): string {
  const byKind = new Map<string, { count: number; total: number; max: number }>();
  for (const pause of pauses) {
    const kind = byKind.get(pause.kind) ?? { count: 0, total: 0, max: 0 };
    kind.count++;
    kind.total += pause.duration;
    kind.max = Math.max(kind.max, pause.duration);
    byKind.set(pause.kind, kind);
  }
  return [...byKind]
    .map(([kind, { count, total, max }]) => `${kind} ${count}× total ${total.toFixed(0)} ms max ${max.toFixed(1)} ms`)
    .join('; ');
}
