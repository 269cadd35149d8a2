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
import { consolidationRepairSchema, numberRepairs, renderRepairRequest, replacementsOf, spliceRepair } from './repair-reply';
import { type CallReview, factCheckJobs, reviewReply, takenOut } from './review-reply';

/** One call's reviewed reply, after the pass's repair request and the run-level budgets. */
export interface BudgetedReview extends CallReview {
  /** The reply was refused whole for breaking a budget: its shown items are retried. */
  refusedWhole: boolean;
  /** Changes of the first reply that passed the guards before any repair. */
  acceptedFirstTry: number;
  /** Whether items of the call were in the pass's repair request. */
  repaired: boolean;
  /** SPEC B10: the deletions whose facts an entry that stays holds, and that entry (`deletionSurvivors`). */
  absorbed: Absorption[];
}

/** What a call needs besides its prompt: its place, how it judges merges, the run budget's per-reply bound. */
export interface CallSetting {
  call: number;
  withCorrections: boolean;
  similarity: SourceSimilarity;
  /** Makes the neighbours of these items available to `similarity` before the reply is judged. */
  prepare: (ids: readonly string[]) => Promise<void>;
  savesPerReply: number;
  /** How an entry's line reads in this run's prompts (the repair request shows the same lines). */
  lineOf: (entry: MemoryEntry) => string;
}

/** One call's first reply through the item rules, waiting for the pass's repair request and the run budgets. */
export interface AskedCall {
  setting: CallSetting;
  shown: ReadonlyMap<string, ConsolidationItem>;
  reply: ConsolidationReply;
  /** The item rules' verdict; none when the reply proposes more than the call may (refused whole by the budget). */
  reviewed: CallReview | undefined;
  acceptedFirstTry: number;
  /** Judges a reply of this call (the first, or the replacements the repair answer gives it) with the call's rules. */
  review: (candidate: ConsolidationReply, label?: (position: number) => string) => Promise<CallReview | undefined>;
}

function gatewayRequest(context: PassContext, pass: string, options: MemoryConsolidationOptions) {
  return {
    pass,
    directiveFile: CONSOLIDATION_DIRECTIVE_FILE,
    builtInDirective: CONSOLIDATION_DIRECTIVE,
    schema: consolidationReplySchema,
    signal: context.signal,
    maxOutputTokens: options.maxOutputTokens,
  };
}

/**
 * One call through the first stages of the review pipeline (SPEC B11): the gateway's size
 * check, extraction and schema, then the item rules (`reviewReply`). The items they refuse for a
 * reason the model can fix wait for the pass's one repair request (`repairAndAdmit`).
 */
export async function askCall(
  context: PassContext,
  pass: string,
  options: MemoryConsolidationOptions,
  data: string,
  shown: ReadonlyMap<string, ConsolidationItem>,
  setting: CallSetting,
): Promise<AskedCall> {
  const facts = new FactCheckStage();
  const rules = {
    protection: options,
    unconnected: (ids: readonly string[]) => setting.similarity.unconnected(ids),
    relatedByText: (a: string, b: string) => setting.similarity.similar(a, b, { byCategory: false }),
    coverage: (a: string, b: string) => setting.similarity.coverage(a, b),
    factCheck: (job: FactCheckJob) => facts.verdictOf(job),
  };
  const scope = { call: setting.call, withCorrections: setting.withCorrections };
  // A reply proposing more saves than entries shown is refused whole before anything of it is judged.
  const review = async (candidate: ConsolidationReply, label?: (position: number) => string): Promise<CallReview | undefined> => {
    if (candidate.toSave.length > setting.savesPerReply || candidate.toSupersede.length > shown.size) return undefined;
    await setting.prepare([
      ...candidate.toSave.flatMap((save) => save.sourceIds ?? []),
      ...candidate.toSupersede.flatMap((pair) => [pair.olderId, pair.newerId]),
    ]);
    await facts.judgeAll(factCheckJobs(candidate, shown, options), context.signal);
    return reviewReply(candidate, shown, label ? { ...scope, label } : scope, rules);
  };
  const reply = await context.gateway!.ask({ ...gatewayRequest(context, pass, options), data });
  const reviewed = await review(reply);
  const acceptedFirstTry = reviewed ? reviewed.saves.length + reviewed.deletions.length + reviewed.supersessions.length : 0;
  return { setting, shown, reply, reviewed, acceptedFirstTry, review };
}

/**
 * The rest of the pipeline, once every call of the pass has its first reply: one repair request
 * for the refused items of all the calls, naming exactly what each lost or added (asked only when
 * some item was refused; its replacements are judged by their own call's rules and spliced into
 * that call's accepted part), then the run-level budgets, call by call, which refuse a reply whole.
 */
export async function repairAndAdmit(
  context: PassContext,
  pass: string,
  options: MemoryConsolidationOptions,
  calls: readonly AskedCall[],
  budget: RunBudget,
  today: Date,
): Promise<BudgetedReview[]> {
  const reviewed = new Map(calls.map((asked) => [asked, asked.reviewed]));
  const pending = calls.filter((asked) => (asked.reviewed?.repairs.length ?? 0) > 0);
  if (pending.length > 0) {
    context.signal.throwIfAborted();
    const repairs = numberRepairs(
      calls.map((asked) => ({ call: asked.setting.call, repairs: asked.reviewed?.repairs ?? [], saves: asked.reply.toSave.length })),
    );
    const lineOf = (id: string) => {
      const asked = pending.find((candidate) => candidate.shown.has(id))!;
      return asked.setting.lineOf(asked.shown.get(id)!.view);
    };
    const answer = await context.gateway!.ask({
      ...gatewayRequest(context, pass, options),
      schema: consolidationRepairSchema,
      data: renderRepairRequest(repairs, lineOf, today),
    });
    const firsts = pending.map((asked) => asked.reviewed!);
    const taken = new Set(
      firsts.flatMap((first) => [
        ...first.saves.flatMap((save) => save.sources.map((source) => source.id)),
        ...first.deletions.map((item) => item.id),
        ...first.supersessions.flatMap((pair) => [pair.older.id, pair.newer.id]),
      ]),
    );
    const accepted = firsts.flatMap((first) => first.saves.map((save) => save.sources.map((source) => source.id)));
    const replacements = replacementsOf(answer, repairs, taken, accepted);
    for (const [index, asked] of pending.entries()) {
      const call = asked.setting.call;
      const first = asked.reviewed!;
      const mine = replacements.byCall.get(call) ?? { reply: { toSave: [], toDelete: [], toSupersede: [] }, itemOf: [] };
      const second = (await asked.review(mine.reply, (position) => `repair of toSave item ${mine.itemOf[position - 1]}`)) ?? {
        saves: [],
        deletions: [],
        supersessions: [],
        refusals: [`call ${call}: the repair answer gives more replacements than the call may write; none is applied`],
        repairs: first.repairs,
        retry: first.repairs.flatMap((item) => item.sourceIds),
        proposed: mine.reply.toSave.length,
      };
      const note = `call ${call}: ${first.repairs.length} toSave item(s) refused; asked the model once to replace just those (${first.repairs.map((item) => item.position).join(', ')})`;
      // The answer's own refusals (a save that replaces nothing…) are reported once, with the first call asked.
      reviewed.set(asked, spliceRepair(first, second, [note, ...(index === 0 ? replacements.refusals : [])]));
    }
  }
  return calls.map((asked) => admit(asked, reviewed.get(asked), pending.includes(asked), budget, options));
}

/** One call's review through the run-level budgets: admitted as it is, or refused whole (its shown items retried). */
function admit(
  asked: AskedCall,
  reviewed: CallReview | undefined,
  repaired: boolean,
  budget: RunBudget,
  options: MemoryConsolidationOptions,
): BudgetedReview {
  const { reply, shown, setting } = asked;
  const admitted =
    reply.toSupersede.length > shown.size
      ? budget.refuse(setting.call, `it proposes ${reply.toSupersede.length} supersessions, more than the ${shown.size} entries shown`)
      : budget.admit(
          setting.call,
          {
            saves: reply.toSave.length,
            deletions: reviewed?.deletions.length ?? 0,
            supersessions: reviewed?.supersessions.length ?? 0,
            protectedMoves: reviewed?.saves.filter((save) => save.movedIntoProtected).length ?? 0,
            share: { shown: shown.size, asked: takenOut(reply, shown, options) },
          },
          setting.savesPerReply,
        );
  if (admitted && reviewed) {
    return {
      ...reviewed,
      refusedWhole: false,
      acceptedFirstTry: asked.acceptedFirstTry,
      repaired,
      absorbed: deletionSurvivors(reviewed, shown.values()),
    };
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
      `call ${setting.call}: the whole reply was refused (see misbehaviour); nothing of it is applied`,
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
