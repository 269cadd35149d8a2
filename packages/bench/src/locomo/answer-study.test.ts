import { describe, expect, it } from 'vitest';
import { type GoldAnswer, type ReaderQuestion, blindReaderBatches, graderItems, scoreGrades } from './answer-study';

const question = (id: string, memory: string): ReaderQuestion => ({
  id,
  question: `question ${id}?`,
  memories: [{ content: memory, noted: '2023-05-08' }],
});
const ids = Array.from({ length: 12 }, (_, index) => `1:${index}`);
const conditions = new Map([
  ['before', ids.map((id) => question(id, `before ${id}`))],
  ['after', ids.map((id) => question(id, `after ${id}`))],
]);
const gold = new Map<string, GoldAnswer>(
  ids.map((id, index) => [id, { id, category: (index % 4) + 1, question: `question ${id}?`, answer: `gold ${id}` }]),
);

describe('blindReaderBatches', () => {
  it('gives every copy of every question once, never two copies of a question in one batch, under keys that name nothing', () => {
    const { batches, key } = blindReaderBatches(conditions, 3, 7);
    expect(batches.flat()).toHaveLength(24);
    expect(key.size).toBe(24);
    for (const batch of batches) {
      const questions = batch.map((item) => item.question);
      expect(new Set(questions).size).toBe(questions.length);
      for (const item of batch) {
        expect(item.key).toMatch(/^q\d{5}$/);
        expect(JSON.stringify(item)).not.toMatch(/"(before|after|id|condition)"/);
      }
    }
    // Each item's memories are those of the condition its key names.
    for (const item of batches.flat()) expect(item.memories[0]!.text.startsWith(key.get(item.key)!.condition)).toBe(true);
  });

  it('is the same for the same seed, and refuses fewer batches than conditions', () => {
    expect(blindReaderBatches(conditions, 2, 3)).toEqual(blindReaderBatches(conditions, 2, 3));
    expect(() => blindReaderBatches(conditions, 1, 3)).toThrow(/cannot keep 2 copies/);
  });
});

describe('graderItems and scoreGrades', () => {
  it('hides the conditions from the grader, and counts the grades per condition and category', () => {
    const { batches, key } = blindReaderBatches(conditions, 2, 11);
    // The reader answers right after the cycle and for half the questions before it.
    const answers = batches.flat().map((item) => {
      const entry = key.get(item.key)!;
      const right = entry.condition === 'after' || Number(entry.id.split(':')[1]) % 2 === 0;
      return { key: item.key, answer: right ? `gold ${entry.id}` : 'unknown' };
    });
    const graded = graderItems(answers, key, gold, 5);
    expect(graded.items).toHaveLength(24);
    for (const item of graded.items) expect(Object.keys(item).sort()).toEqual(['answer', 'gold', 'key', 'question']);
    const grades = graded.items.map((item) => ({ key: item.key, correct: item.answer === item.gold }));
    const scores = scoreGrades(grades, graded.key, key, gold, ['before', 'after']);
    const total = (condition: string) => [...scores.byCondition.get(condition)!.values()].reduce((sum, [correct]) => sum + correct, 0);
    expect(total('after')).toBe(12);
    expect(total('before')).toBe(6);
    expect(scores.byCondition.get('after')!.get(1)).toEqual([3, 3]);
    expect(scores.changed.gained.sort()).toEqual(['1:1', '1:11', '1:3', '1:5', '1:7', '1:9']);
    expect(scores.changed.lost).toEqual([]);
  });

  it('refuses an answer or a grade under a key it did not give', () => {
    const { key } = blindReaderBatches(conditions, 2, 1);
    expect(() => graderItems([{ key: 'q99999', answer: 'x' }], key, gold, 1)).toThrow(/not one the reader was given/);
    expect(() => scoreGrades([{ key: 'g00001', correct: true }], new Map(), key, gold, ['before', 'after'])).toThrow(/not one the grader/);
  });
});
