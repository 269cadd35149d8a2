/**
 * pnpm bench:tiers — hot and cold tiers (SPEC B13) on aged data: LoCoMo's observations
 * (`../shared/data/locomo-dev.json`, read at run time, never copied) made 10,000 and 100,000 long
 * by `locomoHaystack` (each copy a different pair of people), noted over the 90 days before a
 * point 120 days later, with a recall history in which most entries are never recalled: 1,000
 * earlier questions of the same pool were searched, and their top 10 hits got recall tallies
 * (recalled lately, over the last 30 days). Then the `tier-migration` pass, with its default
 * options and no move limit, plans the tiers from the value score and the plan is applied.
 *
 * Printed side by side, in one run, for each size:
 *
 * - evidence recall@10 of 300 later questions (a new draw from the same pool): searching every
 *   entry (the memory without tiers), the hot tier only, and the default search with its cold
 *   fallback;
 * - the hot index's size against the whole;
 * - search p50/p99 of those questions: without tiers, hot only, with the fallback;
 * - the host time of an incremental consolidation cycle (no model: the duplicate pre-pass and
 *   the working set through the change feed, 1 % of the entries changed) with tiers against without.
 *
 * The stores are `InMemoryLongTermMemory` (the same `Bm25Index` and tier search as the file store,
 * without the disk): what is compared is how the hot set changes the work, not the file system.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryLongTermMemory, ManualClock, type MemorySearchTiers, silentLogger } from '@reverie/core';
import { DreamEngine, MemoryConsolidationPass, type PassPlan, TierMigrationPass } from '@reverie/dream';
import { FileDreamStateStore } from '@reverie/file-store';
import { ownValue, setOwn } from '@reverie/core/internal';
import { reportFigure } from '../figures';
import { fmt, percentile, timed } from '../measure';
import { seededRandom } from '../seeded-random';
import {
  evidenceRecall,
  type HaystackDocument,
  type HaystackQuestion,
  locomoHaystack,
  locomoPath,
} from '../natural-questions/locomo-haystack';

const DAY = 86_400_000;
const DEPTH = 10;
const PAST_QUESTIONS = 1000;
const ASKED_QUESTIONS = 300;
const SIZES = (process.env.TIERS_BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const NOW = new Date('2026-06-01T00:00:00.000Z');
const NOTED_FROM = NOW.getTime() - 120 * DAY;

interface Built {
  memory: InMemoryLongTermMemory;
  clock: ManualClock;
  dataPath: string;
  byId: Map<string, HaystackDocument>;
}

/** A store of the haystack's documents, noted over 90 days from `NOTED_FROM`, the clock at `NOW`. */
async function build(documents: readonly HaystackDocument[]): Promise<Built> {
  const clock = new ManualClock(new Date(NOTED_FROM));
  const memory = new InMemoryLongTermMemory({ clock });
  const random = seededRandom(101);
  for (const document of documents) {
    const at = new Date(NOTED_FROM + Math.floor(random() * 90 * DAY));
    await memory.save({ id: document.id, content: document.text, createdAt: at, lastSeenAt: at });
  }
  clock.set(NOW);
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-bench-tiers-'));
  return { memory, clock, dataPath, byId: new Map(documents.map((document) => [document.id, document])) };
}

/** Recall tallies from `past` questions: each of their top 10 hits recalled, at a time in the last 30 days. */
async function recordRecallHistory(built: Built, past: readonly HaystackQuestion[]): Promise<number> {
  const state = new FileDreamStateStore({ dataPath: built.dataPath, clock: built.clock });
  const file = {
    schemaVersion: 1 as const,
    offset: 0,
    entries: {} as Record<string, { hits: number; relevanceSum: number; firstHitAt: string; lastHitAt: string }>,
  };
  const random = seededRandom(202);
  for (const question of past) {
    const hits = await built.memory.search({ text: question.text, maxResults: DEPTH, tiers: 'all' });
    const best = hits[0]?.score ?? 1;
    const at = new Date(NOW.getTime() - Math.floor(random() * 30 * DAY)).toISOString();
    for (const { entry, score } of hits) {
      const tally = ownValue(file.entries, entry.id);
      const relevance = Math.min(1, score / best);
      if (tally) {
        tally.hits += 1;
        tally.relevanceSum += relevance;
        if (at > tally.lastHitAt) tally.lastHitAt = at;
      } else setOwn(file.entries, entry.id, { hits: 1, relevanceSum: relevance, firstHitAt: at, lastHitAt: at });
    }
  }
  await state.recall.writeSignals(file);
  return Object.keys(file.entries).length;
}

/** Plans tier migration with the default options (no move limit) and applies the plan. */
async function migrate(built: Built): Promise<{ moved: number; planMs: number }> {
  const pass = new TierMigrationPass({ maxMovesPerRun: 1_000_000 });
  const services = {
    dataPath: built.dataPath,
    clock: built.clock,
    state: new FileDreamStateStore({ dataPath: built.dataPath, clock: built.clock }),
    logger: silentLogger,
    memory: built.memory,
  };
  const [plan, planMs] = await timed(async () => (await pass.plan({ services, now: () => built.clock.now() } as never)) as PassPlan);
  for (const operation of plan.operations)
    if (operation.op === 'memory.save') await built.memory.save(operation.entry, { ifUpdatedAt: operation.expectUpdatedAt });
  return { moved: plan.operations.length, planMs };
}

/** Evidence recall@10 of the questions, and each search's time, with `tiers`. */
async function ask(
  built: Built,
  questions: readonly HaystackQuestion[],
  tiers: MemorySearchTiers,
): Promise<{ recall: number; times: number[] }> {
  let sum = 0;
  const times: number[] = [];
  for (const question of questions) {
    const [hits, ms] = await timed(() => built.memory.search({ text: question.text, maxResults: DEPTH, tiers }));
    times.push(ms);
    sum += evidenceRecall(
      question,
      hits.map((hit) => built.byId.get(hit.entry.id)!),
      DEPTH,
    );
  }
  return { recall: sum / questions.length, times: times.sort((a, b) => a - b) };
}

/** The host time of one incremental consolidation cycle (no model) after 1 % of the entries changed. */
async function incrementalCycle(built: Built): Promise<number> {
  const engine = new DreamEngine(
    {
      dataPath: built.dataPath,
      clock: built.clock,
      state: new FileDreamStateStore({ dataPath: built.dataPath, clock: built.clock }),
      logger: silentLogger,
      memory: built.memory,
    },
    [new MemoryConsolidationPass()],
  );
  await engine.run({ trigger: 'bench' });
  built.clock.advance(60_000);
  const hot = await built.memory.list({ tier: 'hot' });
  const random = seededRandom(303);
  const changes = Math.max(1, Math.floor(built.byId.size / 100));
  for (let i = 0; i < changes; i++) {
    const entry = hot[Math.floor(random() * hot.length)]!;
    await built.memory.save({ content: `${entry.content} (noted again)`, lastSeenAt: built.clock.now() });
  }
  const [, ms] = await timed(() => engine.run({ trigger: 'bench' }));
  return ms;
}

async function main(): Promise<void> {
  const path = locomoPath();
  if (!path) {
    console.log('bench:tiers needs LoCoMo (../shared/data/locomo-dev.json or LOCOMO_PATH): skipped.');
    return;
  }
  console.log('bench:tiers — hot and cold tiers on aged LoCoMo observations (SPEC B13)\n');
  for (const size of SIZES) {
    const { documents, questions } = locomoHaystack(path, size, PAST_QUESTIONS + ASKED_QUESTIONS);
    const past = questions.slice(0, PAST_QUESTIONS);
    const asked = questions.slice(PAST_QUESTIONS);
    const flat = await build(documents);
    const tiered = await build(documents);
    const recalled = await recordRecallHistory(tiered, past);
    const { moved, planMs } = await migrate(tiered);
    const hot = (await tiered.memory.list({ tier: 'hot' })).length;

    const everything = await ask(flat, asked, 'hot');
    const hotOnly = await ask(tiered, asked, 'hot');
    const fallback = await ask(tiered, asked, 'fallback');
    const withoutTiersMs = await incrementalCycle(flat);
    const withTiersMs = await incrementalCycle(tiered);

    const p = (times: number[], q: number) => fmt(percentile(times, q), 3);
    console.log(
      `${size.toLocaleString('en')} observations; ${recalled.toLocaleString('en')} ever recalled (${fmt((recalled / size) * 100, 1)} %)`,
    );
    console.log(`  tier-migration: ${moved.toLocaleString('en')} moved to cold, planned in ${fmt(planMs, 0)} ms`);
    console.log(
      `  hot index: ${hot.toLocaleString('en')} of ${size.toLocaleString('en')} entries (${fmt(size / Math.max(1, hot), 1)}× smaller)`,
    );
    console.log(
      `  recall@10: everything ${fmt(everything.recall, 3)}, hot only ${fmt(hotOnly.recall, 3)}, with the cold fallback ${fmt(fallback.recall, 3)}`,
    );
    console.log(
      `  search p50 / p99 ms: without tiers ${p(everything.times, 50)} / ${p(everything.times, 99)}, hot only ${p(hotOnly.times, 50)} / ${p(hotOnly.times, 99)}, with the fallback ${p(fallback.times, 50)} / ${p(fallback.times, 99)}`,
    );
    console.log(`  incremental consolidation cycle, host ms: without tiers ${fmt(withoutTiersMs, 0)}, with tiers ${fmt(withTiersMs, 0)}\n`);

    reportFigure({
      id: `tiers.recallFallback.${size}`,
      label: `recall@10 with the cold fallback (${size} entries)`,
      value: fallback.recall,
      unit: '',
      baseline: { label: 'searching everything', value: everything.recall },
      target: { atLeast: everything.recall - 0.01 },
    });
    reportFigure({
      id: `tiers.recallHot.${size}`,
      label: `recall@10 hot only (${size} entries)`,
      value: hotOnly.recall,
      unit: '',
      baseline: { label: 'searching everything', value: everything.recall },
    });
    reportFigure({
      id: `tiers.hotShare.${size}`,
      label: `hot index, share of the entries (${size})`,
      value: hot / size,
      unit: '',
      target: { atMost: 0.2 },
    });
    reportFigure({
      id: `tiers.searchP99.${size}`,
      label: `search p99 with the fallback (${size} entries)`,
      value: percentile(fallback.times, 99),
      unit: 'ms',
      baseline: { label: 'without tiers', value: percentile(everything.times, 99) },
    });
    reportFigure({
      id: `tiers.incremental.${size}`,
      label: `incremental cycle host time with tiers (${size} entries)`,
      value: withTiersMs,
      unit: 'ms',
      baseline: { label: 'without tiers', value: withoutTiersMs },
    });
    for (const built of [flat, tiered]) {
      await built.memory.close();
      rmSync(built.dataPath, { recursive: true, force: true });
    }
  }
}

await main();
