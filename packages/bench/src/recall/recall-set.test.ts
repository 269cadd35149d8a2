import { describe, expect, it } from 'vitest';
import { validateCategory } from '@reverie/core';
import { loadRecallSet, QUESTION_KINDS, recallAt } from './recall-set';

describe('the recall set', () => {
  const set = loadRecallSet();

  it('has at least 300 questions over a few hundred memories, every kind represented', () => {
    expect(set.questions.length).toBeGreaterThanOrEqual(300);
    expect(set.memories.length).toBeGreaterThanOrEqual(250);
    const kinds = new Set(set.questions.map((question) => question.kind));
    expect([...kinds].sort()).toEqual([...QUESTION_KINDS].sort());
  });

  it('names only memories it holds, with no duplicate ids, texts or expected ids', () => {
    const memoryIds = new Set(set.memories.map((memory) => memory.id));
    expect(memoryIds.size).toBe(set.memories.length);
    expect(new Set(set.questions.map((question) => question.id)).size).toBe(set.questions.length);
    expect(new Set(set.questions.map((question) => question.text.toLowerCase())).size).toBe(set.questions.length);
    expect(new Set(set.memories.map((memory) => memory.content)).size).toBe(set.memories.length);
    for (const question of set.questions) {
      expect(new Set(question.expected).size, question.id).toBe(question.expected.length);
      for (const id of question.expected) expect(memoryIds.has(id), `${question.id} expects ${id}`).toBe(true);
    }
  });

  it('expects at least two memories for a multi-hop question', () => {
    for (const question of set.questions.filter((q) => q.kind === 'multi-hop')) expect(question.expected.length, question.id).toBeGreaterThan(1);
  });

  it('holds memories a store accepts (valid categories)', () => {
    for (const memory of set.memories) expect(validateCategory(memory.category)).toBe(memory.category);
  });
});

describe('recallAt', () => {
  it('is the share of the expected ids among the first k ranked', () => {
    expect(recallAt(2, ['a', 'b', 'c'], ['b', 'c'])).toBe(0.5);
    expect(recallAt(3, ['a', 'b', 'c'], ['b', 'c'])).toBe(1);
    expect(recallAt(5, [], ['a'])).toBe(0);
  });
});
