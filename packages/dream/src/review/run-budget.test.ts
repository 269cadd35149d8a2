import { describe, expect, it } from 'vitest';
import { deletionBudget, RunBudget, replyAllowanceOutOfRecall } from './run-budget';

describe('RunBudget (SPEC B11)', () => {
  it('admits replies within the budgets and counts their deletions across calls', () => {
    const budget = new RunBudget(3);
    expect(budget.admit(1, { saves: 10, deletions: 2 }, 10)).toBe(true);
    expect(budget.admit(2, { saves: 0, deletions: 1 }, 10)).toBe(true);
    expect(budget.deletions).toBe(3);
    expect(budget.misbehaviour).toEqual([]);
  });

  it('refuses a reply whole when it proposes more writes than allowed, and records it as misbehaviour', () => {
    const budget = new RunBudget(3);
    expect(budget.admit(1, { saves: 10_000, deletions: 0 }, 5)).toBe(false);
    expect(budget.misbehaviour).toEqual(['call 1: reply refused whole: it proposes 10000 writes, more than the 5 one reply may propose']);
  });

  it('refuses whole the reply that would go over the run-level deletion budget, without using any of it', () => {
    const budget = new RunBudget(3);
    expect(budget.admit(1, { saves: 0, deletions: 2 }, 5)).toBe(true);
    expect(budget.admit(2, { saves: 1, deletions: 2 }, 5)).toBe(false);
    expect(budget.deletions).toBe(2);
    expect(budget.misbehaviour[0]).toContain(
      "call 2: reply refused whole: it deletes 2 entries outright, over the run's budget of 3 (2 already used by earlier calls)",
    );
    expect(budget.admit(3, { saves: 0, deletions: 1 }, 5)).toBe(true);
  });

  it('deletionBudget: a share of what was shown, at least one when anything may go', () => {
    expect(deletionBudget(0.2, 100)).toBe(20);
    expect(deletionBudget(0.2, 3)).toBe(1);
    expect(deletionBudget(0, 100)).toBe(0);
    expect(deletionBudget(0.2, 0)).toBe(0);
  });
});

describe('replyAllowanceOutOfRecall', () => {
  it('gives a share of the call, one of a pair or more, none of a single entry', () => {
    expect(replyAllowanceOutOfRecall(0.2, 1)).toBe(0);
    expect(replyAllowanceOutOfRecall(0.2, 2)).toBe(1);
    expect(replyAllowanceOutOfRecall(0.2, 9)).toBe(1);
    expect(replyAllowanceOutOfRecall(0.2, 10)).toBe(2);
    expect(replyAllowanceOutOfRecall(0, 10)).toBe(0);
  });
});
