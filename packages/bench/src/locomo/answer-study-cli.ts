/**
 * pnpm --filter @reverie/bench locomo:answers <step> <answers dir> <study dir> [options] — answers
 * as the measure, blind (see `answer-study.ts`, docs/benchmarks.md "Answers"). `<answers dir>` is
 * what `LOCOMO_ANSWERS_DIR` made `bench:locomo` write (`<condition>.reader.jsonl`, `gold.jsonl`);
 * `<study dir>` is where the study's files go — outside the repository: they hold LoCoMo's text.
 *
 * - `blind … --conditions cycle-1.before,cycle-1.after [--batches N] [--seed S]`: writes
 *   `reader-<n>.jsonl`, one batch per reader (or per request), and the key under `keys/`.
 * - `grade … [--seed S]`: reads each batch's answers from `answers-<n>.jsonl` (`{"key", "answer"}`
 *   per line) and writes `grader.jsonl` (`{"key", "question", "gold", "answer"}`) for a grader.
 * - `score …`: reads the grader's `grades.jsonl` (`{"key", "correct"}` per line) and prints correct
 *   answers per condition and question category, and the questions gained and lost between the
 *   first two conditions.
 *
 * Give a reader the `reader-<n>.jsonl` files only, and a grader `grader.jsonl` only: `keys/` says
 * which item is which.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GoldAnswer, type KeyEntry, type ReaderQuestion, blindReaderBatches, graderItems, scoreGrades } from './answer-study';
import { QUESTION_CATEGORIES } from './locomo-data';

const [step, answersDir, studyDir, ...rest] = process.argv.slice(2);
const usage = 'usage: locomo:answers blind|grade|score <answers dir> <study dir> [--conditions a,b] [--batches N] [--seed S]';
if (!step || !answersDir || !studyDir || !['blind', 'grade', 'score'].includes(step)) {
  console.error(usage);
  process.exit(2);
}
const option = (name: string): string | undefined => {
  const at = rest.indexOf(`--${name}`);
  return at < 0 ? undefined : rest[at + 1];
};
const seed = Number(option('seed') ?? 1);
const readLines = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
const writeLines = (file: string, rows: readonly unknown[]) =>
  writeFileSync(file, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
const keys = join(studyDir, 'keys');
const gold = () => new Map(readLines<GoldAnswer>(join(answersDir, 'gold.jsonl')).map((question) => [question.id, question]));
const study = () =>
  JSON.parse(readFileSync(join(keys, 'study.json'), 'utf8')) as {
    conditions: string[];
    reader: Record<string, KeyEntry>;
    grader?: Record<string, string>;
  };

if (step === 'blind') {
  const conditions = (option('conditions') ?? '').split(',').filter(Boolean);
  if (conditions.length < 2) {
    console.error('locomo:answers blind: name two or more conditions, e.g. --conditions cycle-1.before,cycle-1.after');
    process.exit(2);
  }
  const questions = new Map(conditions.map((name) => [name, readLines<ReaderQuestion>(join(answersDir, `${name}.reader.jsonl`))]));
  const { batches, key } = blindReaderBatches(questions, Number(option('batches') ?? conditions.length), seed);
  mkdirSync(keys, { recursive: true });
  batches.forEach((batch, index) => writeLines(join(studyDir, `reader-${index + 1}.jsonl`), batch));
  writeFileSync(join(keys, 'study.json'), JSON.stringify({ conditions, reader: Object.fromEntries(key) }));
  console.log(
    `${batches.length} reader batches (${batches.map((batch) => batch.length).join(', ')} questions) in ${studyDir}; the key in ${keys}`,
  );
} else if (step === 'grade') {
  const { conditions, reader } = study();
  const answers = readdirSync(studyDir)
    .filter((name) => /^answers-\d+\.jsonl$/.test(name))
    .flatMap((name) => readLines<{ key: string; answer: string }>(join(studyDir, name)));
  const missing = Object.keys(reader).length - new Set(answers.map((answer) => answer.key)).size;
  if (missing !== 0) console.warn(`${missing} reader item(s) have no answer (or some have two)`);
  const { items, key } = graderItems(answers, new Map(Object.entries(reader)), gold(), seed);
  writeLines(join(studyDir, 'grader.jsonl'), items);
  writeFileSync(join(keys, 'study.json'), JSON.stringify({ conditions, reader, grader: Object.fromEntries(key) }));
  console.log(`${items.length} answers to grade in ${join(studyDir, 'grader.jsonl')}`);
} else {
  const { conditions, reader, grader } = study();
  if (!grader || !existsSync(join(studyDir, 'grades.jsonl'))) {
    console.error('locomo:answers score: run `grade` first, and put the grader’s grades in grades.jsonl');
    process.exit(2);
  }
  const scores = scoreGrades(
    readLines<{ key: string; correct: boolean }>(join(studyDir, 'grades.jsonl')),
    new Map(Object.entries(grader)),
    new Map(Object.entries(reader)),
    gold(),
    conditions,
  );
  console.log(`| condition | ${QUESTION_CATEGORIES.map((category) => category.name).join(' | ')} | all |`);
  console.log(`| --- |${' --- |'.repeat(QUESTION_CATEGORIES.length + 1)}`);
  for (const condition of conditions) {
    const counts = scores.byCondition.get(condition) ?? new Map<number, [number, number]>();
    const cells = QUESTION_CATEGORIES.map(({ category }) => {
      const [correct, graded] = counts.get(category) ?? [0, 0];
      return graded === 0 ? '–' : `${correct}/${graded}`;
    });
    const [correct, graded] = [...counts.values()].reduce(([a, b], [c, d]) => [a + c, b + d], [0, 0]);
    console.log(
      `| ${condition} | ${cells.join(' | ')} | ${correct}/${graded} (${graded === 0 ? 'n/a' : `${((100 * correct) / graded).toFixed(1)} %`}) |`,
    );
  }
  console.log(
    `\n${conditions[0]} → ${conditions[1]}: ${scores.changed.gained.length} question(s) gained, ${scores.changed.lost.length} lost` +
      (scores.changed.gained.length + scores.changed.lost.length > 0
        ? ` (gained: ${scores.changed.gained.join(', ') || '–'}; lost: ${scores.changed.lost.join(', ') || '–'})`
        : ''),
  );
}
