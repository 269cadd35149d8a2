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

/**
 * The labelled recall set of issue 20, written for Reverie (no public benchmark's text): eight
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
 * Evidence recall at `k`: the share of a question's expected memories found among the first `k`
 * ids ranked for it (1 when all of them are, ½ when one of two is). Pure.
 */
export function recallAt(k: number, ranked: readonly string[], expected: readonly string[]): number {
  const top = new Set(ranked.slice(0, k));
  return expected.filter((id) => top.has(id)).length / expected.length;
}
