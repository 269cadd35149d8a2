import type { MemoryEntry } from '@reverie/core';
import type { PassContext } from '../../engine/dream-types';
import { type FactCheckJob, FactCheckStage } from '../../review/fact-check-stage';
import type { RunBudget } from '../../review/run-budget';
import type { SourceSimilarity } from '../../review/source-similarity';
import type { ConsolidationItem } from './consolidation-item';
import { type Absorption, deletionSurvivors } from './deletion-survivors';
import { type ConsolidationReply, consolidationReplySchema } from './consolidation-reply';
import type { MemoryConsolidationOptions } from './memory-consolidation-options';
import { CONSOLIDATION_DIRECTIVE, CONSOLIDATION_DIRECTIVE_FILE } from './render-consolidation-prompt';
import { consolidationRepairSchema, renderRepairRequest, replacementsOf, spliceRepair } from './repair-reply';
import { type CallReview, factCheckJobs, reviewReply, takenOut } from './review-reply';

/** One call's reviewed reply, after the run-level budgets. */
export interface BudgetedReview extends CallReview {
  /** The reply was refused whole for breaking a budget: its shown items are retried. */
  refusedWhole: boolean;
  /** Changes of the first reply that passed the guards before any repair. */
  acceptedFirstTry: number;
  /** Whether the call needed its repair request. */
  repaired: boolean;
  /** SPEC B10: the deletions whose facts an entry that stays holds, and that entry (`deletionSurvivors`). */
  absorbed: Absorption[];
}

/**
 * One call through the review pipeline (SPEC B11): the gateway's size check, extraction and
 * schema; the item rules (`reviewReply`), with at most one repair request naming exactly what
 * the refused merges lost or added; then the run-level budgets, which refuse a reply whole.
 */
export async function askAndReview(
  context: PassContext,
  pass: string,
  options: MemoryConsolidationOptions,
  data: string,
  shown: ReadonlyMap<string, ConsolidationItem>,
  call: {
    call: number;
    withCorrections: boolean;
    similarity: SourceSimilarity;
    /** Makes the neighbours of these items available to `similarity` before the reply is judged. */
    prepare: (ids: readonly string[]) => Promise<void>;
    budget: RunBudget;
    savesPerReply: number;
    /** How an entry's line reads in this run's prompts (a repair request shows the same lines). */
    lineOf: (entry: MemoryEntry) => string;
    today: Date;
  },
): Promise<BudgetedReview> {
  const gateway = context.gateway!;
  const request = {
    pass,
    directiveFile: CONSOLIDATION_DIRECTIVE_FILE,
    builtInDirective: CONSOLIDATION_DIRECTIVE,
    schema: consolidationReplySchema,
    signal: context.signal,
    maxOutputTokens: options.maxOutputTokens,
  };
  const facts = new FactCheckStage();
  const rules = {
    protection: options,
    unconnected: (ids: readonly string[]) => call.similarity.unconnected(ids),
    relatedByText: (a: string, b: string) => call.similarity.similar(a, b, { byCategory: false }),
    coverage: (a: string, b: string) => call.similarity.coverage(a, b),
    factCheck: (job: FactCheckJob) => facts.verdictOf(job),
  };
  const scope = { call: call.call, withCorrections: call.withCorrections };
  // A reply proposing more saves than entries shown is refused whole before anything of it is judged.
  const review = async (candidate: ConsolidationReply, label?: (position: number) => string): Promise<CallReview | undefined> => {
    if (candidate.toSave.length > call.savesPerReply || candidate.toSupersede.length > shown.size) return undefined;
    await call.prepare([
      ...candidate.toSave.flatMap((save) => save.sourceIds ?? []),
      ...candidate.toSupersede.flatMap((pair) => [pair.olderId, pair.newerId]),
    ]);
    await facts.judgeAll(factCheckJobs(candidate, shown, options), context.signal);
    return reviewReply(candidate, shown, label ? { ...scope, label } : scope, rules);
  };
  const reply = await gateway.ask({ ...request, data });
  let reviewed = await review(reply);
  const acceptedFirstTry = reviewed ? reviewed.saves.length + reviewed.deletions.length + reviewed.supersessions.length : 0;
  let repaired = false;
  if (reviewed && reviewed.repairs.length > 0) {
    // One repair request, for the refused items only; the accepted part of the reply is kept as it is.
    context.signal.throwIfAborted();
    const first = reviewed;
    repaired = true;
    const answer = await gateway.ask({
      ...request,
      schema: consolidationRepairSchema,
      data: renderRepairRequest(first.repairs, (id) => call.lineOf(shown.get(id)!.view), call.today),
    });
    const taken = new Set([
      ...first.saves.flatMap((save) => save.sources.map((source) => source.id)),
      ...first.deletions.map((item) => item.id),
      ...first.supersessions.flatMap((pair) => [pair.older.id, pair.newer.id]),
    ]);
    const replacements = replacementsOf(answer, first.repairs, taken, {
      call: call.call,
      accepted: first.saves.map((save) => save.sources.map((source) => source.id)),
    });
    const second = (await review(replacements.reply, (position) => `repair of toSave item ${replacements.itemOf[position - 1]}`))!;
    const asked = `call ${call.call}: ${first.repairs.length} toSave item(s) refused; asked the model once to replace just those (${first.repairs.map((item) => item.position).join(', ')})`;
    reviewed = spliceRepair(first, second, [asked, ...replacements.refusals]);
  }
  const admitted =
    reply.toSupersede.length > shown.size
      ? call.budget.refuse(call.call, `it proposes ${reply.toSupersede.length} supersessions, more than the ${shown.size} entries shown`)
      : call.budget.admit(
          call.call,
          {
            saves: reply.toSave.length,
            deletions: reviewed?.deletions.length ?? 0,
            supersessions: reviewed?.supersessions.length ?? 0,
            protectedMoves: reviewed?.saves.filter((save) => save.movedIntoProtected).length ?? 0,
            share: { shown: shown.size, asked: takenOut(reply, shown, options) },
          },
          call.savesPerReply,
        );
  if (admitted && reviewed) {
    return { ...reviewed, refusedWhole: false, acceptedFirstTry, repaired, absorbed: deletionSurvivors(reviewed, shown.values()) };
  }
  return {
    acceptedFirstTry: 0,
    repaired,
    saves: [],
    deletions: [],
    repairs: [],
    supersessions: [],
    refusals: [
      ...(reviewed?.refusals ?? []),
      `call ${call.call}: the whole reply was refused (see misbehaviour); nothing of it is applied`,
    ],
    retry: [...shown.keys()],
    proposed: reviewed?.proposed ?? reply.toSave.length + new Set(reply.toDelete).size + reply.toSupersede.length,
    refusedWhole: true,
    absorbed: [],
  };
}

/** Embeddings of the shown items when an embedder is configured; none (BM25 alone) without one or when it fails. */
export async function embeddingsOf(context: PassContext, shown: ReadonlyMap<string, ConsolidationItem>): Promise<Map<string, number[]>> {
  const { embedder, logger } = context.services;
  const signal = context.signal;
  const vectors = new Map<string, number[]>();
  if (!embedder || shown.size < 2) return vectors;
  const ids = [...shown.keys()];
  try {
    const embedded = await embedder.embed(
      ids.map((id) => shown.get(id)!.view.content),
      { signal },
    );
    ids.forEach((id, position) => {
      const vector = embedded[position];
      if (vector) vectors.set(id, vector);
    });
  } catch (error) {
    signal.throwIfAborted();
    logger.warn('Embedding the shown entries failed; merges are checked for similarity with BM25 alone in this call.', {
      error: String((error as Error)?.message ?? error),
    });
  }
  return vectors;
}
