import { describe, expect, it } from 'vitest';
import { validateCategory } from '@reverie/core';
import { loadPersonalSet, loadRecallSet, memoriesByScope, QUESTION_KINDS, recallAt, scopeOf } from './recall-set';

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
    for (const question of set.questions.filter((q) => q.kind === 'multi-hop'))
      expect(question.expected.length, question.id).toBeGreaterThan(1);
  });

  it('holds memories a store accepts (valid categories)', () => {
    for (const memory of set.memories) expect(validateCategory(memory.category)).toBe(memory.category);
  });
});

describe('the personal-scope recall set', () => {
  const shared = loadRecallSet();
  const personal = loadPersonalSet();
  const scopes = memoriesByScope(shared, personal);

  it('has at least 300 questions, every kind represented, spread over every scope', () => {
    expect(personal.questions.length).toBeGreaterThanOrEqual(300);
    expect(new Set(personal.questions.map((question) => question.kind))).toEqual(new Set(QUESTION_KINDS));
    expect(new Set(personal.questions.map((question) => question.scope))).toEqual(new Set(scopes.keys()));
  });

  it('gives every scope a haystack of several hundred memories', () => {
    expect(scopes.size).toBe(8);
    for (const [scope, memories] of scopes) expect(memories.length, scope).toBeGreaterThanOrEqual(350);
  });

  it('adds memories with ids and texts of their own, in a scope of the shared set, that a store accepts', () => {
    const sharedScopes = new Set(shared.memories.map((memory) => scopeOf(memory.id)));
    const all = [...shared.memories, ...personal.memories];
    expect(new Set(all.map((memory) => memory.id)).size).toBe(all.length);
    expect(new Set(all.map((memory) => memory.content)).size).toBe(all.length);
    for (const memory of personal.memories) {
      expect(sharedScopes.has(scopeOf(memory.id)), memory.id).toBe(true);
      expect(validateCategory(memory.category)).toBe(memory.category);
    }
  });

  it('expects only memories of the question’s own scope, without duplicates; a multi-hop question at least two', () => {
    expect(new Set(personal.questions.map((question) => question.id)).size).toBe(personal.questions.length);
    expect(new Set(personal.questions.map((question) => question.text.toLowerCase())).size).toBe(personal.questions.length);
    for (const question of personal.questions) {
      const ids = new Set(scopes.get(question.scope)?.map((memory) => memory.id));
      expect(new Set(question.expected).size, question.id).toBe(question.expected.length);
      for (const id of question.expected) expect(ids.has(id), `${question.id} expects ${id} in ${question.scope}`).toBe(true);
      if (question.kind === 'multi-hop') expect(question.expected.length, question.id).toBeGreaterThan(1);
    }
  });

  it('asks as the user would, never by the user’s own name', () => {
    const ownNames: Record<string, string> = { maya: 'Maya', dan: 'Daniel', sofia: 'Sofia', hiro: 'Hiro', lena: 'Lena', omar: 'Omar' };
    for (const question of personal.questions) {
      const name = ownNames[question.scope];
      if (name) expect(question.text, question.id).not.toContain(name);
    }
  });
});

describe('scopeOf', () => {
  it('is the id up to its first hyphen', () => {
    expect(scopeOf('maya-j131')).toBe('maya');
    expect(scopeOf('home-04')).toBe('home');
  });
});

describe('recallAt', () => {
  it('is the share of the expected ids among the first k ranked', () => {
    expect(recallAt(2, ['a', 'b', 'c'], ['b', 'c'])).toBe(0.5);
    expect(recallAt(3, ['a', 'b', 'c'], ['b', 'c'])).toBe(1);
    expect(recallAt(5, [], ['a'])).toBe(0);
  });
});
