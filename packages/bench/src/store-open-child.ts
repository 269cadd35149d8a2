// One cold open of a FileMemoryStore in a fresh process, for `pnpm bench:store`: the first
// `forTurn` of a process pays for it. Prints one JSON line: the open + first search, the first
// 20 queries after it, then p50/p99 over 1000 more (after those 20 warm-ups).
import type { ILogger } from '@reverie/core';
import { FileMemoryStore } from '@reverie/file-store';
import { percentile, rssMiB, timed } from './measure';
import { syntheticQuery } from './synthetic-memory';

const [dataPath] = process.argv.slice(2);
const FIRST = 20;
const QUERIES = 1000;
let refused: string | undefined;
const logger: ILogger = {
  debug: () => undefined,
  info: (message, context) => {
    if (/snapshot/.test(message)) refused = String(context?.reason ?? message);
  },
  warn: () => undefined,
  error: () => undefined,
};

const store = new FileMemoryStore({ dataPath: dataPath!, logger });
const [first, openMs] = await timed(() => store.search({ text: syntheticQuery(0) }));
const rssAfterOpen = rssMiB();
const firstQueries: number[] = [];
for (let q = 1; q <= FIRST; q++) firstQueries.push((await timed(() => store.search({ text: syntheticQuery(q) })))[1]);
const warm: number[] = [];
let hits = 0;
for (let q = FIRST + 1; q <= FIRST + QUERIES; q++) {
  const [results, ms] = await timed(() => store.search({ text: syntheticQuery(q) }));
  warm.push(ms);
  hits += results.length;
}
const [, closeMs] = await timed(() => store.close());
firstQueries.sort((a, b) => a - b);
warm.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    openMs,
    firstResults: first.length,
    refused,
    first: { p50: percentile(firstQueries, 50), max: firstQueries.at(-1) },
    warm: { p50: percentile(warm, 50), p99: percentile(warm, 99), avgResults: hits / QUERIES },
    closeMs,
    rssAfterOpen,
  }),
);
