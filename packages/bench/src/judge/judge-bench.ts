/**
 * bench:judge — the fact-preservation judge over the merge corpus (packages/core/test/__fixtures__/
 * merge-corpus): acceptance of the legitimate merges, refusal of the hostile ones by attack class,
 * and the average time of one judgement.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { judgeFactPreservation } from '@reverie/core/internal';
import { fmt } from '../measure';

interface CorpusCase {
  id: string;
  sources: string[];
  merged: string;
  class?: string;
  knownDates?: string[];
}

const corpusDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'core', 'test', '__fixtures__', 'merge-corpus');
const load = (name: string): CorpusCase[] => JSON.parse(readFileSync(join(corpusDir, `${name}.json`), 'utf8')) as CorpusCase[];
const judge = (item: CorpusCase) =>
  judgeFactPreservation(item.sources, item.merged, item.knownDates ? { knownDates: item.knownDates } : {});
const percent = (part: number, whole: number) => `${fmt((100 * part) / whole, 1)} % (${part}/${whole})`;

const corpora = { 'legit-dev': load('legit-dev'), 'legit-holdout': load('legit-holdout'), hostile: load('hostile') };

/** The recorded real-model merges, judged as the dream pass does (known dates, strict for user-preferences). */
interface RecordedCase extends CorpusCase {
  sourceCategories: string[];
  sourceDaysAgo: number[];
}
const RECORDED_SEEDED = Date.parse('2026-11-20T09:00:00.000Z');
const recorded = load('recorded-real') as RecordedCase[];
const judgeRecorded = (item: RecordedCase) =>
  judgeFactPreservation(item.sources, item.merged, {
    strict: item.sourceCategories.some((category) => category.startsWith('user-preferences')),
    knownDates: [...new Set(item.sourceDaysAgo.map((days) => new Date(RECORDED_SEEDED - days * 86_400_000).toISOString().slice(0, 10)))],
  });

console.log('Fact-preservation judge over the merge corpus\n');
for (const name of ['legit-dev', 'legit-holdout'] as const) {
  const cases = corpora[name];
  console.log(`${name.padEnd(16)} accepted ${percent(cases.filter((item) => judge(item).ok).length, cases.length)}`);
}
console.log(`${'recorded-real'.padEnd(16)} accepted ${percent(recorded.filter((item) => judgeRecorded(item).ok).length, recorded.length)}`);
const hostile = corpora.hostile;
console.log(`${'hostile'.padEnd(16)} refused  ${percent(hostile.filter((item) => !judge(item).ok).length, hostile.length)}`);
for (const attack of [...new Set(hostile.map((item) => item.class ?? 'unclassed'))]) {
  const ofClass = hostile.filter((item) => (item.class ?? 'unclassed') === attack);
  console.log(`  ${attack.padEnd(18)} refused ${percent(ofClass.filter((item) => !judge(item).ok).length, ofClass.length)}`);
}

const all = [...corpora['legit-dev'], ...corpora['legit-holdout'], ...hostile];
for (let warm = 0; warm < 3; warm += 1) for (const item of all) judge(item);
const rounds = 20;
const start = performance.now();
for (let round = 0; round < rounds; round += 1) for (const item of all) judge(item);
const elapsed = performance.now() - start;
console.log(`\n${rounds * all.length} judgements: ${fmt(elapsed / (rounds * all.length), 3)} ms per judgement on average`);
