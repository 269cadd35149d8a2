import { seededRandom, shuffled } from '../seeded-random';

/**
 * Answers as the measure, blind (issue 32): each question's retrieved memories under two or more
 * conditions (before and after a dream cycle, two rankings…) go to a reader that must not know
 * which condition it reads, and every answer to a grader that must not know it either. These pure
 * functions make the reader's batches, the grader's items and the table; `answer-study-cli.ts`
 * reads and writes the files. The keys that say which item is which stay with the person running
 * the study, never in what a reader or grader is given.
 */

/** One question as `bench:locomo` writes it for a reader (`*.reader.jsonl`). */
export interface ReaderQuestion {
  id: string;
  question: string;
  memories: ReadonlyArray<{ content: string; noted: string; happened?: string }>;
}

/** A question under one condition, as a reader gets it: an opaque key, the question, the memories. */
export interface ReaderItem {
  key: string;
  question: string;
  memories: Array<{ text: string; noted: string; happened?: string }>;
}

/** What an opaque key stands for. */
export interface KeyEntry {
  condition: string;
  id: string;
}

/** The gold answer of a question (`gold.jsonl`). */
export interface GoldAnswer {
  id: string;
  category: number;
  question: string;
  answer: string | number;
}

/** An answer to grade, as a grader gets it: nothing says which condition or question id it is. */
export interface GraderItem {
  key: string;
  question: string;
  gold: string;
  answer: string;
}

/**
 * The reader's batches: every question of every condition, each under an opaque key, shuffled,
 * with a question's copies under different conditions in different batches (so that no batch shows
 * one question twice), and the key to them. `conditions` maps a condition's name to its
 * questions; there must be at least as many batches as conditions. Pure for a given `seed`.
 */
export function blindReaderBatches(
  conditions: ReadonlyMap<string, readonly ReaderQuestion[]>,
  batchCount: number,
  seed: number,
): { batches: ReaderItem[][]; key: Map<string, KeyEntry> } {
  if (!Number.isInteger(batchCount) || batchCount < conditions.size)
    throw new Error(`blindReaderBatches: ${batchCount} batches cannot keep ${conditions.size} copies of a question apart`);
  const random = seededRandom(seed);
  const byId = new Map<string, Array<{ condition: string; question: ReaderQuestion }>>();
  for (const [condition, questions] of conditions)
    for (const question of questions) byId.set(question.id, [...(byId.get(question.id) ?? []), { condition, question }]);
  const placed: Array<Array<{ condition: string; question: ReaderQuestion }>> = Array.from({ length: batchCount }, () => []);
  for (const copies of byId.values()) {
    const slots = shuffled(
      random,
      Array.from({ length: batchCount }, (_, index) => index),
    );
    copies.forEach((copy, index) => placed[slots[index]!]!.push(copy));
  }
  const key = new Map<string, KeyEntry>();
  let next = 0;
  const batches = placed.map((batch) =>
    shuffled(random, batch).map(({ condition, question }) => {
      next += 1;
      const itemKey = `q${String(next).padStart(5, '0')}`;
      key.set(itemKey, { condition, id: question.id });
      return {
        key: itemKey,
        question: question.question,
        memories: question.memories.map((memory) => ({
          text: memory.content,
          noted: memory.noted,
          ...(memory.happened === undefined ? {} : { happened: memory.happened }),
        })),
      };
    }),
  );
  return { batches, key };
}

/**
 * The grader's items: each reader answer with its question and gold answer, shuffled, under new
 * opaque keys (so that a grader cannot tell two conditions apart by key order either), and the key
 * from those to the reader's keys. An answer whose key or question is unknown is an error. Pure
 * for a given `seed`.
 */
export function graderItems(
  answers: ReadonlyArray<{ key: string; answer: string }>,
  key: ReadonlyMap<string, KeyEntry>,
  gold: ReadonlyMap<string, GoldAnswer>,
  seed: number,
): { items: GraderItem[]; key: Map<string, string> } {
  const random = seededRandom(seed);
  const graderKey = new Map<string, string>();
  const items = shuffled(random, answers).map((answer, index) => {
    const entry = key.get(answer.key);
    if (!entry) throw new Error(`graderItems: answer key ${JSON.stringify(answer.key)} is not one the reader was given`);
    const question = gold.get(entry.id);
    if (!question) throw new Error(`graderItems: no gold answer for question ${JSON.stringify(entry.id)}`);
    const itemKey = `g${String(index + 1).padStart(5, '0')}`;
    graderKey.set(itemKey, answer.key);
    return { key: itemKey, question: question.question, gold: String(question.answer), answer: answer.answer };
  });
  return { items, key: graderKey };
}

/** Correct answers out of graded ones, per condition and question category. */
export interface AnswerScores {
  /** condition → category → [correct, graded]. */
  byCondition: Map<string, Map<number, [number, number]>>;
  /** Questions graded under every condition whose grade differs between the first two conditions: gained, lost. */
  changed: { gained: string[]; lost: string[] };
}

/** Joins the grades back to conditions and questions and counts them. Pure. */
export function scoreGrades(
  grades: ReadonlyArray<{ key: string; correct: boolean }>,
  graderKey: ReadonlyMap<string, string>,
  readerKey: ReadonlyMap<string, KeyEntry>,
  gold: ReadonlyMap<string, GoldAnswer>,
  conditions: readonly string[],
): AnswerScores {
  const byCondition = new Map<string, Map<number, [number, number]>>();
  const perQuestion = new Map<string, Map<string, boolean>>();
  for (const grade of grades) {
    const entry = readerKey.get(graderKey.get(grade.key) ?? '');
    if (!entry) throw new Error(`scoreGrades: grade key ${JSON.stringify(grade.key)} is not one the grader was given`);
    const category = gold.get(entry.id)?.category ?? 0;
    const counts = byCondition.get(entry.condition) ?? new Map<number, [number, number]>();
    const cell = counts.get(category) ?? [0, 0];
    counts.set(category, [cell[0] + (grade.correct ? 1 : 0), cell[1] + 1]);
    byCondition.set(entry.condition, counts);
    perQuestion.set(entry.id, (perQuestion.get(entry.id) ?? new Map()).set(entry.condition, grade.correct));
  }
  const gained: string[] = [];
  const lost: string[] = [];
  const [first, second] = conditions;
  if (first !== undefined && second !== undefined) {
    for (const [id, graded] of perQuestion) {
      const before = graded.get(first);
      const after = graded.get(second);
      if (before === undefined || after === undefined || before === after) continue;
      (after ? gained : lost).push(id);
    }
  }
  return { byCondition, changed: { gained, lost } };
}
