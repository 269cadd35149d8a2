import type { FeedbackSignal, MemoryEntry } from '@reverie/core';
import type { ConsolidationItem } from './consolidation-item';
import type { MemoryConsolidationOptions } from './memory-consolidation-options';
import { estimateTokens, packIntoCalls } from './pack-calls';
import { CONSOLIDATION_DIRECTIVE, renderConsolidationData } from './render-consolidation-prompt';

/** Room kept in every call for the fence lines and labels around the entries. */
const FRAME_TOKENS = 100;
/** Output tokens a reply spends per entry besides its content (id, category, tags, JSON punctuation). */
const REPLY_TOKENS_PER_ENTRY = 30;

/**
 * Packs the groups into calls (SPEC B1, B11): the directive and frame come off the input budget,
 * the feedback off the first call's; and a call holds no more than a reply restating every one
 * of its entries can write within `maxOutputTokens`. Each entry costs the larger of its two
 * shares, so a call fits both budgets.
 */
export function packConsolidationCalls(
  groups: string[][],
  byId: ReadonlyMap<string, ConsolidationItem>,
  feedback: readonly FeedbackSignal[],
  now: Date,
  lineOf: (entry: MemoryEntry) => string,
  options: MemoryConsolidationOptions,
): string[][] {
  const budget = options.tokenBudget;
  const floor = Math.floor(budget / 4);
  const frame =
    estimateTokens(CONSOLIDATION_DIRECTIVE) +
    estimateTokens(renderConsolidationData({ entries: [], feedback: [], today: now })) +
    FRAME_TOKENS;
  const entryBudget = Math.max(floor, budget - frame);
  const feedbackTokens = feedback.length === 0 ? 0 : estimateTokens(renderConsolidationData({ entries: [], feedback, today: now }));
  const firstBudget = Math.max(floor, entryBudget - feedbackTokens);
  const outputBudget = options.maxOutputTokens;
  const unit = 1_000_000;
  const cost = (id: string) => {
    const view = byId.get(id)!.view;
    const input = estimateTokens(`${lineOf(view)}\n`) / entryBudget;
    const output = (estimateTokens(view.content) + REPLY_TOKENS_PER_ENTRY) / outputBudget;
    return Math.ceil(Math.max(input, output) * unit);
  };
  return packIntoCalls(groups, cost, unit, Math.floor((unit * firstBudget) / entryBudget));
}
