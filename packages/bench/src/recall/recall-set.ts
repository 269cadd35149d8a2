import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** What makes a question hard for keyword recall; each question is labelled with the main one. */
export const QUESTION_KINDS = ['paraphrase', 'inflection', 'synonym', 'name', 'time', 'multi-hop'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

const recallMemorySchema = z.strictObject({
  id: z.string().min(1),
  category: z.string().min(1),
  tags: z.array(z.string().min(1)),
  content: z.string().min(1),
});

const recallQuestionSchema = z.strictObject({
  id: z.string().min(1),
  kind: z.enum(QUESTION_KINDS),
  text: z.string().min(1),
  /** The memories that answer it (several for a multi-hop question). */
  expected: z.array(z.string().min(1)).min(1),
});

export const recallSetSchema = z.strictObject({
  memories: z.array(recallMemorySchema),
  questions: z.array(recallQuestionSchema),
});

export type RecallSet = z.infer<typeof recallSetSchema>;
export type RecallMemory = RecallSet['memories'][number];
export type RecallQuestion = RecallSet['questions'][number];

const personalQuestionSchema = recallQuestionSchema.extend({
  /** The person (or team, or household) whose own store the question is searched in. */
  scope: z.string().min(1),
});

export const personalSetSchema = z.strictObject({
  /** More everyday observations of the same people, so that each scope holds several hundred memories. */
  memories: z.array(recallMemorySchema),
  questions: z.array(personalQuestionSchema),
});

export type PersonalSet = z.infer<typeof personalSetSchema>;
export type PersonalQuestion = PersonalSet['questions'][number];

/**
 * The labelled recall set, written for Reverie (no public benchmark's text): eight
 * people's and agents' lives and work (a backend engineer, a marine biologist, an ops agent, a
 * baker, a retired teacher, a journalist, a family's household agent, a freelance developer).
 * 292 memories the questions ask about (ids `maya-01`…), among 1,040 everyday journal
 * observations of the same people (ids `maya-j001`…: meals, films, errands, weather; dated in
 * 2023 and on topics no question asks about), so that a name alone does not find the answer.
 * 366 questions, each labelled with its kind and the memories that answer it.
 */
export const RECALL_SET_PATH = new URL('./__fixtures__/recall-set.json', import.meta.url);

export function loadRecallSet(path: URL = RECALL_SET_PATH): RecallSet {
  return recallSetSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

/**
 * The personal-scope recall set: how an agent is really asked. An agent's memory is one user's
 * (one scope), and the user asks in the first person ("when is my tax return due?"), without
 * their own name. A scope is a person of the shared set (the start of a memory's id: `maya`,
 * `dan`, `atlas`, `sofia`, `hiro`, `lena`, `home`, `omar`); it holds that person's memories of
 * the shared set plus 1,802 further everyday observations of the same people from this file
 * (ids `maya-j131`…: chores, outings, purchases, small work tasks; dated in 2023), some 360–400
 * memories a scope. 318 questions, each searched only in its scope, labelled with its kind and the
 * memories that answer it. The questions were written from the memories and the style guide
 * below alone, before any ranking was measured on them, and are not edited after seeing scores:
 *
 * > Write the questions a person asks their own assistant, which remembers things about them.
 * > Speak as the person ("I", "my", "we", "our"), never your own name; name other people where
 * > you naturally would. Ask the way people talk: short, everyday words. Do not copy a memory's
 * > key words on purpose, and do not avoid them on purpose either. One question, one clear
 * > answer in the memories, labelled with the memories that answer it and its main kind.
 */
export const PERSONAL_SET_PATH = new URL('./__fixtures__/personal-set.json', import.meta.url);

export function loadPersonalSet(path: URL = PERSONAL_SET_PATH): PersonalSet {
  return personalSetSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

/** The scope a memory of the sets belongs to: its id up to the first hyphen (`maya-j131` → `maya`). Pure. */
export function scopeOf(memoryId: string): string {
  return memoryId.slice(0, memoryId.indexOf('-'));
}

/** Every memory of the shared set and the personal set's extra observations, grouped by scope. Pure. */
export function memoriesByScope(shared: RecallSet, personal: PersonalSet): Map<string, RecallMemory[]> {
  const byScope = new Map<string, RecallMemory[]>();
  for (const memory of [...shared.memories, ...personal.memories]) {
    const scope = scopeOf(memory.id);
    const memories = byScope.get(scope) ?? [];
    memories.push(memory);
    byScope.set(scope, memories);
  }
  return byScope;
}

/**
 * Evidence recall at `k`: the share of a question's expected memories found among the first `k`
 * ids ranked for it (1 when all of them are, ½ when one of two is). Pure.
 */
export function recallAt(k: number, ranked: readonly string[], expected: readonly string[]): number {
  const top = new Set(ranked.slice(0, k));
  return expected.filter((id) => top.has(id)).length / expected.length;
}
