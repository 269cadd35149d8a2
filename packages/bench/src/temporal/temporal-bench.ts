// pnpm bench:temporal — facts that change (SPEC B9). 60 facts (10 people × 6
// attributes) each take 2–4 values over months; every value is noted on the day it becomes true,
// and a dream cycle runs after each month's notes with a scripted model that says which note
// replaces which. Then, for every fact, the question "<person> <attribute>" is asked now and as
// of 3 past dates; hit@1 is the share whose top result carries the value that held then. The
// same notes in a memory whose cycles never supersede (today's behaviour) are the baseline:
// asked with no date (today's recall) and with asOf (memory as noted by then).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, silentLogger } from '@reverie/core';
import { DreamEngine, MemoryConsolidationPass } from '@reverie/dream';
import { FileDreamStateStore, FileMemoryStore } from '@reverie/file-store';
import { reportFigure } from '../figures';
import { fmt } from '../measure';
import { backgroundNotes, type ChangingFact, changingFacts, valueAt } from './changing-facts';
import { SupersessionModel } from './supersession-model';

const START = new Date('2025-01-01T09:00:00Z');
const MONTH = 30 * 86_400_000;
const facts = changingFacts(START);
const byContent = new Map(
  facts.flatMap((fact) => fact.versions.map((version, index) => [version.content, { fact: fact.id, version: index }] as const)),
);
const notes = facts
  .flatMap((fact) => fact.versions.map((version) => ({ content: version.content, at: version.at })))
  .sort((a, b) => a.at.getTime() - b.at.getTime());
const end = new Date(notes.at(-1)!.at.getTime() + MONTH);

/** Three past instants per fact at which it had a value, spread over its history (deterministic). */
function pastDates(fact: ChangingFact): Date[] {
  const first = fact.versions[0]!.at.getTime();
  const span = end.getTime() - first;
  return [0.15, 0.5, 0.8].map((share) => new Date(first + Math.floor(span * share)));
}

interface Memory {
  store: FileMemoryStore;
  dataPath: string;
  pairs: number;
  refusals: string[];
}

/** Notes every value on its day, a dream cycle after each month (superseding or not), up to `end`. */
async function build(supersede: boolean): Promise<Memory> {
  const dataPath = mkdtempSync(join(tmpdir(), 'reverie-temporal-bench-'));
  const clock = new ManualClock(START);
  const store = new FileMemoryStore({ dataPath, clock, logger: silentLogger });
  for (const content of backgroundNotes()) await store.save({ content });
  const model = new SupersessionModel((content) => byContent.get(content), supersede);
  const engine = new DreamEngine(
    { dataPath, clock, state: new FileDreamStateStore({ dataPath, clock }), logger: silentLogger, memory: store, model: model.model },
    [new MemoryConsolidationPass()],
  );
  const refusals: string[] = [];
  let next = 0;
  for (let month = START.getTime() + MONTH; month <= end.getTime() + MONTH; month += MONTH) {
    for (; next < notes.length && notes[next]!.at.getTime() < month; next++) {
      clock.set(notes[next]!.at);
      await store.save({ content: notes[next]!.content, category: 'people' });
    }
    clock.set(new Date(month));
    const report = await engine.run({ trigger: 'bench' });
    const outcome = report.passes[0]!;
    if (outcome.status === 'failed') throw new Error(`the cycle failed: ${outcome.error}`);
    if (outcome.status !== 'skipped') refusals.push(...outcome.refusals);
  }
  clock.set(end);
  return { store, dataPath, pairs: model.pairs, refusals };
}

const misses: string[] = [];

/** The share of questions whose top result carries the expected value. */
async function hitAt1(store: FileMemoryStore, questions: Array<{ fact: ChangingFact; asOf?: Date; expected: string }>): Promise<number> {
  let hits = 0;
  for (const { fact, asOf, expected } of questions) {
    const [top] = await store.search({ text: fact.query, maxResults: 1, ...(asOf ? { asOf } : {}) });
    if (
      top &&
      byContent.get(top.entry.content)?.fact === fact.id &&
      fact.versions[byContent.get(top.entry.content)!.version]!.value === expected
    )
      hits++;
    else
      misses.push(
        `"${fact.query}"${asOf ? ` as of ${asOf.toISOString().slice(0, 10)}` : ''}: expected ${expected}, got ${JSON.stringify(top?.entry.content)}`,
      );
  }
  return hits / questions.length;
}

const current = facts.map((fact) => ({ fact, expected: fact.versions.at(-1)!.value }));
const past = facts.flatMap((fact) => pastDates(fact).map((asOf) => ({ fact, asOf, expected: valueAt(fact, asOf)! })));
const changes = facts.reduce((sum, fact) => sum + fact.versions.length - 1, 0);

const started = performance.now();
const withSupersession = await build(true);
const today = await build(false);
const measured = {
  current: await hitAt1(withSupersession.store, current),
  asOf: await hitAt1(withSupersession.store, past),
  missed: misses.splice(0).slice(0, 3),
  todayCurrent: await hitAt1(today.store, current),
  todayUndated: await hitAt1(
    today.store,
    past.map(({ fact, expected }) => ({ fact, expected })),
  ),
  todayAsOf: await hitAt1(today.store, past),
};
for (const memory of [withSupersession, today]) {
  await memory.store.close();
  rmSync(memory.dataPath, { recursive: true, force: true });
}

console.log(
  `${facts.length} facts, ${changes} changes (1–3 each) over ${Math.round((end.getTime() - START.getTime()) / MONTH)} months, ${notes.length} notes + ${backgroundNotes().length} background; a cycle a month; ${withSupersession.pairs} supersessions proposed by the scripted model (${fmt((performance.now() - started) / 1000, 1)} s)`,
);
console.log(
  `${withSupersession.refusals.length} refusals${withSupersession.refusals.length > 0 ? `, e.g. ${withSupersession.refusals.slice(0, 3).join(' | ')}` : ''}`,
);
if (measured.missed.length > 0) console.log(`missed with supersession, e.g. ${measured.missed.join(' | ')}`);
console.log('');
console.log('| question | with supersession | today (no supersession) | target |');
console.log('| --- | --- | --- | --- |');
console.log(`| current fact, hit@1 (${current.length}) | ${fmt(measured.current)} | ${fmt(measured.todayCurrent)} | ≥ 0.90 |`);
console.log(
  `| as of a past date, hit@1 (${past.length}) | ${fmt(measured.asOf)} (asOf) | ${fmt(measured.todayUndated)} without a date; ${fmt(measured.todayAsOf)} with asOf | ≥ 0.80 |`,
);
reportFigure({
  id: 'temporal.current.hit1',
  label: 'current-fact hit@1 (changing facts)',
  value: measured.current,
  unit: 'ratio',
  baseline: { label: 'without supersession', value: measured.todayCurrent },
  target: { atLeast: 0.9 },
});
reportFigure({
  id: 'temporal.asOf.hit1',
  label: 'as-of hit@1 (changing facts)',
  value: measured.asOf,
  unit: 'ratio',
  baseline: { label: 'without supersession, no date', value: measured.todayUndated },
  target: { atLeast: 0.8 },
});
