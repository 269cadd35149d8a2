import { DEFAULT_DECAY_OPTIONS, type FeedbackSignal, type IFeedbackStore, type MemoryEntry, withEffectiveImportanceAt } from '@reverie/core';
import { z } from 'zod';
import type { DreamPass, DreamServices, PassContext, PassPlan, PassSkip } from '../../engine/dream-types';
import { deletionBudget, RunBudget } from '../../review/run-budget';
import { SourceSimilarity } from '../../review/source-similarity';
import { assembleOperations } from './assemble-operations';
import { CandidateLinks, findCandidateClusters, ItemNumbers, itemLookup, seedLinks } from './candidate-clusters';
import { type NeighbourLookup, storeLookup } from '../../review/neighbour-lookup';
import {
  advanceCursor,
  changedSince,
  comparePositions,
  consolidationCursorOf,
  dueRetries,
  entryPosition,
  nextRetries,
  wordingFingerprint,
} from './consolidation-cursor';
import {
  type ConsolidationCursor,
  consolidationCursorSchema,
  type CursorPosition,
  fingerprintChanges,
  fingerprintsSchema,
} from '@reverie/dream-state';
import { buildConsolidationItems, type ConsolidationItem } from './consolidation-item';
import { type ConsolidationReply, consolidationReplySchema } from './consolidation-reply';
import {
  type MemoryConsolidationOptions,
  type MemoryConsolidationOptionsInput,
  memoryConsolidationOptionsSchema,
} from './memory-consolidation-options';
import { estimateTokens, packIntoCalls } from './pack-calls';
import {
  CONSOLIDATION_DIRECTIVE,
  CONSOLIDATION_DIRECTIVE_FILE,
  renderConsolidationData,
  cachedEntryLines,
} from './render-consolidation-prompt';
import { type CallReview, factCheckJobs, reviewReply, takenOut } from './review-reply';
import { consolidationRepairSchema, renderRepairRequest, replacementsOf, spliceRepair } from './repair-reply';
import { type FactCheckJob, FactCheckStage } from '../../review/fact-check-stage';
import { parsePassOptions } from '../parse-pass-options';
import { loadWorkingSet, type WorkingSet } from './working-set';
import { describeServiceNeeds } from '../../engine/service-needs';

/** Room kept in every call for the fence lines and labels around the entries. */
const FRAME_TOKENS = 100;
const DAY_MS = 86_400_000;
/** Output tokens a reply spends per entry besides its content (id, category, tags, JSON punctuation). */
const REPLY_TOKENS_PER_ENTRY = 30;
/** Embeddings count two entries as similar from this cosine similarity on (SPEC M4's minSimilarity). */
const MIN_COSINE = 0.5;
/** Prompt lines kept for reuse in one run (about 300 bytes each): every line of an incremental run, a slice of an initial one. */
const MAX_CACHED_LINES = 8192;

/** Which items the model step looks at in one run, grouped as they should travel. */
interface Selection {
  groups: string[][];
  /** Items the run looked at (seeds and everything shown). */
  considered: Set<string>;
  /** Where the entries cursor moves once the run is applied. */
  through?: CursorPosition;
  /** The entries whose wording the cursor records as seen once the run is applied. */
  seen: MemoryEntry[];
  notes: string[];
}

/** One call's reviewed reply, after the run-level budgets. */
interface BudgetedReview extends CallReview {
  /** The reply was refused whole for breaking a budget: its shown items are retried. */
  refusedWhole: boolean;
  /** Changes of the first reply that passed the guards before any repair. */
  acceptedFirstTry: number;
  /** Whether the call needed its repair request. */
  repaired: boolean;
}

/**
 * SPEC D3–D5, B1, B4, B7 (REM): consolidates long-term memory.
 *
 * 1. Always, without a model: entries with equal normalised content and subject time are merged
 *    by the host with the D4 arithmetic (`buildConsolidationItems`).
 * 2. With a model: the entries that changed since the pass's cursor (oldest first, at most
 *    `maxChangedPerRun`) seed clusters of BM25 neighbours among all entries; clusters of two or
 *    more, and the entries around new correction feedback, are packed into calls under
 *    `tokenBudget` ('full' sends every entry instead). The model's replies go through the
 *    guards (`reviewReply`, `assembleOperations`) and become operations.
 * 3. The cursor moves only in `commit`, after the engine applied the plan.
 */
export class MemoryConsolidationPass implements DreamPass {
  readonly name = 'memory-consolidation';
  readonly phase = 'rem' as const;
  readonly requires = ['memory'] as const;
  readonly model = 'optional' as const;
  readonly options: MemoryConsolidationOptions;

  constructor(options: MemoryConsolidationOptionsInput = {}) {
    this.options = parsePassOptions('memory-consolidation', memoryConsolidationOptionsSchema, options);
  }

  async plan(context: PassContext): Promise<PassPlan | PassSkip> {
    const { memory, state, logger } = context.services;
    if (!memory) return { skipped: describeServiceNeeds(['memory']) };
    const now = context.now();
    const cursor = await consolidationCursorOf(state.cursors, this.name).read();
    const decay = context.services.decay ?? DEFAULT_DECAY_OPTIONS;
    // SPEC D7: the pass judges (protection, D4 merges) and rewrites by importance as it stands now.
    const asNow = withEffectiveImportanceAt(now, decay);
    const gateway = context.gateway;

    if (!gateway) {
      // The deterministic pre-pass alone: duplicates among what changed and its neighbours.
      const scope = await loadWorkingSet({
        memory,
        logger,
        since: cursor.prepass,
        useFeed: this.options.strategy !== 'full',
        accept: () => true,
        view: asNow,
        maxChanged: Number.POSITIVE_INFINITY,
        extraIds: [],
        extraTexts: [],
        now,
        neighbours: this.options.neighbours,
        signal: context.signal,
      });
      const items = buildConsolidationItems(scope.entries, now, decay);
      const assembled = assembleOperations({ items, reviews: [], considered: new Set(), now, decay, runId: context.runId });
      return {
        operations: assembled.operations,
        itemsProcessed: scope.entries.length,
        notes: [...scope.notes, ...assembled.notes, 'no model configured: only the deterministic merge of duplicates ran'],
        refusals: [],
        ...(scope.feedCursor !== undefined ? { commit: { prepass: scope.feedCursor } satisfies PrepassCommit } : {}),
      };
    }

    const feedback = await this.unseenFeedback(context.services.feedback, cursor, now);
    const corrections = feedback.filter((signal) => signal.kind === 'correction');
    const due = dueRetries(cursor.retry, now);
    const scope = await loadWorkingSet({
      memory,
      logger,
      since: cursor.feed,
      useFeed: this.options.strategy !== 'full',
      accept: (entry, byPosition) => changedSince(cursor, entry, byPosition),
      view: asNow,
      maxChanged: this.options.maxChangedPerRun,
      extraIds: due,
      extraTexts: corrections.map((signal) => signal.text),
      now,
      neighbours: this.options.neighbours,
      signal: context.signal,
    });
    const items = buildConsolidationItems(scope.entries, now, decay);
    const byId = new Map(items.map((item) => [item.id, item]));
    const itemOfEntry = new Map<string, string>();
    for (const item of items) for (const member of item.members) itemOfEntry.set(member.id, item.id);
    // Neighbours from the store's own index when it has a change feed (B12), else from an index over the items.
    const itemNeighbours = itemLookup(items);
    const lookup = scope.feed ? storeLookup(scope.feed.found, (id) => itemOfEntry.get(id), itemNeighbours) : itemNeighbours;
    const retrying = due.filter((id) => byId.has(id));
    const selection =
      this.options.strategy === 'full' ? this.selectAll(items) : await this.selectChanged(items, itemOfEntry, scope, corrections, retrying, lookup, context.signal);
    selection.notes.splice(1, 0, ...scope.notes);

    const lineOf = cachedEntryLines(MAX_CACHED_LINES);
    const calls = this.pack(selection.groups, byId, feedback, now, lineOf);
    if (calls.length === 0 && corrections.length > 0) calls.push([]);
    const sentFeedback = calls.length > 0 ? feedback : [];
    const shownIds = calls.flat();
    // The similarity guard looks up the neighbours of a merge's sources: with a feed, ask the store
    // for those it was not asked about yet, once the reply names them.
    const feed = scope.feed;
    const similarityNeighbours = Math.min(100, Math.max(this.options.neighbours, this.options.maxClusterSize));
    const prepare = feed
      ? (ids: readonly string[]) => feed.fetch(ids.filter((id) => byId.has(id)), similarityNeighbours, context.signal)
      : async () => undefined;
    const budget = new RunBudget(deletionBudget(this.options.deletionCap, shownIds.length), this.options.deletionCap);

    const reviews: BudgetedReview[] = [];
    for (const [index_, ids] of calls.entries()) {
      context.signal.throwIfAborted();
      const shown = new Map(ids.map((id) => [id, byId.get(id)!]));
      const withFeedback = index_ === 0 ? sentFeedback : [];
      const data = renderConsolidationData({ entries: ids.map((id) => byId.get(id)!.view), feedback: withFeedback, today: now, line: lineOf });
      const correctionsShown = withFeedback.filter((signal) => signal.kind === 'correction').length;
      const similarity = new SourceSimilarity(
        lookup,
        (id) => byId.get(id)?.view.content,
        {
          neighbours: Math.max(this.options.neighbours, this.options.maxClusterSize),
          minNeighbourScore: this.options.minNeighbourScore,
          minCosine: MIN_COSINE,
          categoryOf: (id) => byId.get(id)?.view.category,
        },
        await embeddingsOf(context, shown),
      );
      reviews.push(
        await this.askAndReview(context, data, shown, {
          call: index_ + 1,
          withCorrections: correctionsShown > 0,
          similarity,
          prepare,
          budget,
          // A reply rewrites at most every entry shown, plus one anti-pattern per correction.
          savesPerReply: ids.length + correctionsShown,
          lineOf,
          today: now,
        }),
      );
    }

    for (const id of shownIds) selection.considered.add(id);
    const assembled = assembleOperations({ items, reviews, considered: selection.considered, now, decay, runId: context.runId });
    await context.artifact(
      `${this.name}.selection.json`,
      `${JSON.stringify({ strategy: this.options.strategy, considered: [...selection.considered], retried: retrying, calls, feedback: sentFeedback.map((signal) => signal.id) }, null, 2)}\n`,
    );

    const notes = [...selection.notes, `${calls.length} model call(s), ${shownIds.length} entries shown`];
    if (sentFeedback.length > 0) notes.push(`${sentFeedback.length} feedback signal(s) shown (${corrections.length} correction(s))`);
    const groupsShown = shownIds.filter((id) => byId.get(id)?.merged).length;
    if (groupsShown > 0) {
      notes.push(`${groupsShown} pre-pass group(s) shown as their merged form under a member's id (the merged entry itself is not saved yet)`);
    }
    const refused = new Set(reviews.flatMap((review) => review.retry));
    const retries = nextRetries(cursor.retry, { refused, shown: new Set(shownIds), isLive: scope.isLive, now }, this.options);
    if (refused.size > 0) notes.push(`${refused.size - retries.givenUp.length} entr(y/ies) whose merge was refused will be offered to the model again`);
    if (retries.givenUp.length > 0) notes.push(`gave up on ${retries.givenUp.length} entr(y/ies) refused ${this.options.maxRetries + 1} times: ${retries.givenUp.join(', ')}`);
    const lastFeedback = sentFeedback.at(-1);
    const commit: ConsolidationCommit = {
      ...(selection.through ? { through: selection.through } : {}),
      ...(lastFeedback ? { feedback: { at: lastFeedback.timestamp, id: lastFeedback.id } } : {}),
      seen: { fingerprints: fingerprintsOf(selection.seen), ...(scope.live ? { live: [...scope.live] } : { gone: [...scope.gone] }) },
      ...(scope.feedCursor !== undefined ? { feed: scope.feedCursor } : {}),
      retry: retries.retry,
      ownWrites: assembled.ownWrites.map(wording),
    };
    const admitted = reviews.filter((review) => !review.refusedWhole);
    return {
      operations: assembled.operations,
      itemsProcessed: scope.entries.length,
      notes: [...notes, ...assembled.notes],
      refusals: assembled.refusals,
      misbehaviour: budget.misbehaviour,
      proposals: {
        proposed: reviews.reduce((sum, review) => sum + review.proposed, 0),
        accepted: admitted.reduce((sum, review) => sum + review.saves.length + review.deletions.length + review.supersessions.length, 0),
        acceptedFirstTry: admitted.reduce((sum, review) => sum + review.acceptedFirstTry, 0),
        repairs: reviews.filter((review) => review.repaired).length,
      },
      details: { pendingRetries: Object.keys(retries.retry).length },
      commit,
    };
  }

  /**
   * The change-feed cursor the next run reads from: the pre-pass's without a model, the model
   * step's with one; none with `strategy: 'full'`, which lists every entry.
   */
  async memoryFeedCursors(services: DreamServices): Promise<string[]> {
    if (this.options.strategy === 'full') return [];
    const cursor = await consolidationCursorOf(services.state.cursors, this.name).read();
    const next = services.model ? cursor.feed : cursor.prepass;
    return next === undefined ? [] : [next];
  }

  /**
   * Advances the cursor past what the applied plan considered, records the pass's own writes
   * that landed, and keeps the plan's retry queue. Reads the cursor afresh: when a saved plan is
   * applied after another run moved it, the cursor still never goes backwards.
   */
  async commit(services: DreamServices, data: unknown): Promise<void> {
    const cursorFile = consolidationCursorOf(services.state.cursors, this.name);
    const cursor = await cursorFile.read();
    const prepass = prepassCommitSchema.safeParse(data);
    if (prepass.success) {
      await cursorFile.write(advanceCursor(cursor, { written: [], prepass: prepass.data.prepass }), cursor);
      return;
    }
    const { through, feedback, seen, retry, ownWrites, feed } = consolidationCommitSchema.parse(data);
    const written: MemoryEntry[] = [];
    for (const entry of ownWrites) {
      const stored = await services.memory?.get(entry.id);
      if (stored && sameWording(stored, entry)) written.push(stored);
    }
    const updated = advanceCursor(cursor, { through, feedback, retry, written, feed });
    const fingerprints = seen.fingerprints ?? fingerprintsOf(seen.entries ?? []);
    const changes = fingerprintChanges(cursor.seen, { fingerprints, ...(seen.gone ? { gone: seen.gone } : {}) });
    await cursorFile.write(updated, cursor, { changes, ...(seen.live ? { live: new Set(seen.live) } : {}) });
  }

  /** New feedback since the cursor, from the last `feedbackDays`, at most `maxFeedback` (the most recent). */
  private async unseenFeedback(store: IFeedbackStore | undefined, cursor: ConsolidationCursor, now: Date): Promise<FeedbackSignal[]> {
    if (!store || this.options.maxFeedback === 0 || this.options.feedbackDays === 0) return [];
    const windowStart = new Date(now.getTime() - this.options.feedbackDays * DAY_MS).toISOString();
    const signals = await store.list({ since: windowStart });
    const unseen = signals.filter(
      (signal) => cursor.feedback === undefined || comparePositions({ at: signal.timestamp, id: signal.id }, cursor.feedback) > 0,
    );
    return unseen.slice(Math.max(0, unseen.length - this.options.maxFeedback));
  }

  /**
   * Incremental (B1): clusters around the oldest changed entries, at most `maxChangedPerRun` of
   * them. With a feed, the store is asked for the seeds' neighbours a slice at a time (all of
   * them when the run listed every entry) and only the links are kept, instead of indexing the
   * listing again.
   */
  private async selectChanged(
    items: readonly ConsolidationItem[],
    itemOf: ReadonlyMap<string, string>,
    scope: WorkingSet,
    corrections: readonly FeedbackSignal[],
    retrying: readonly string[],
    lookup: NeighbourLookup,
    signal: AbortSignal,
  ): Promise<Selection> {
    const changed = scope.changed;
    const batch = changed.slice(0, this.options.maxChangedPerRun);
    const seeds = [...new Set([...retrying, ...batch.map((entry) => itemOf.get(entry.id)!)])];
    let links: CandidateLinks | undefined;
    if (scope.feed) {
      const found = new CandidateLinks(new ItemNumbers(items.map((item) => item.id)));
      const isItem = (id: string) => itemOf.get(id) === id;
      const limit = Math.min(100, Math.max(1, this.options.neighbours));
      const itemOfEntry = (id: string) => itemOf.get(id);
      await scope.feed.eachSlice(seeds, limit, (slice, hits) => seedLinks(slice, isItem, this.options, storeLookup(hits, itemOfEntry, lookup), found), signal);
      links = found;
    }
    const clusters = findCandidateClusters(
      items,
      seeds,
      corrections.map((signal) => signal.text),
      this.options,
      lookup,
      links,
    );
    const inClusters = new Set(clusters.flatMap((cluster) => cluster.ids));
    const alone = seeds.filter((seed) => !inClusters.has(seed)).length;
    const source = scope.live ? `of ${scope.entries.length} entries listed` : 'read from the change feed';
    const notes = [`incremental: ${changed.length} changed since the cursor (${source}), ${batch.length} taken this run`];
    if (changed.length > batch.length) notes.push(`${changed.length - batch.length} changed entries left for the next run`);
    if (retrying.length > 0) notes.push(`${retrying.length} entr(y/ies) whose merge was refused earlier offered again`);
    if (alone > 0) notes.push(`${alone} changed entries have no similar entry: no model call needed for them`);
    const last = batch.at(-1);
    return {
      groups: clusters.map((cluster) => cluster.ids),
      considered: new Set([...seeds, ...inClusters]),
      ...(last ? { through: entryPosition(last) } : {}),
      seen: batch,
      notes,
    };
  }

  /** Full: every item (up to `maxEntriesFull`), the baseline incremental is measured against. */
  private selectAll(items: readonly ConsolidationItem[]): Selection {
    const shown = items.slice(0, this.options.maxEntriesFull);
    const members = shown.flatMap((item) => item.members);
    const last = members.map(entryPosition).sort(comparePositions).at(-1);
    const notes = [`full: ${shown.length} of ${items.length} entries sent`];
    if (shown.length < items.length) notes.push(`${items.length - shown.length} entries over maxEntriesFull (${this.options.maxEntriesFull}) not sent`);
    return {
      groups: shown.map((item) => [item.id]),
      considered: new Set(shown.map((item) => item.id)),
      ...(last ? { through: last } : {}),
      seen: members,
      notes,
    };
  }

  /**
   * Packs the groups into calls (SPEC B1, B11): the directive and frame come off the input budget,
   * the feedback off the first call's; and a call holds no more than a reply restating every one
   * of its entries can write within `maxOutputTokens`. Each entry costs the larger of its two
   * shares, so a call fits both budgets.
   */
  private pack(
    groups: string[][],
    byId: ReadonlyMap<string, ConsolidationItem>,
    feedback: readonly FeedbackSignal[],
    now: Date,
    lineOf: (entry: MemoryEntry) => string,
  ): string[][] {
    const budget = this.options.tokenBudget;
    const floor = Math.floor(budget / 4);
    const frame = estimateTokens(CONSOLIDATION_DIRECTIVE) + estimateTokens(renderConsolidationData({ entries: [], feedback: [], today: now })) + FRAME_TOKENS;
    const entryBudget = Math.max(floor, budget - frame);
    const feedbackTokens = feedback.length === 0 ? 0 : estimateTokens(renderConsolidationData({ entries: [], feedback, today: now }));
    const firstBudget = Math.max(floor, entryBudget - feedbackTokens);
    const outputBudget = this.options.maxOutputTokens;
    const unit = 1_000_000;
    const cost = (id: string) => {
      const view = byId.get(id)!.view;
      const input = estimateTokens(`${lineOf(view)}\n`) / entryBudget;
      const output = (estimateTokens(view.content) + REPLY_TOKENS_PER_ENTRY) / outputBudget;
      return Math.ceil(Math.max(input, output) * unit);
    };
    return packIntoCalls(groups, cost, unit, Math.floor((unit * firstBudget) / entryBudget));
  }

  /**
   * One call through the review pipeline (SPEC B11): the gateway's size check, extraction and
   * schema; the item rules (`reviewReply`), with at most one repair request naming exactly what
   * the refused merges lost or added; then the run-level budgets, which refuse a reply whole.
   */
  private async askAndReview(
    context: PassContext,
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
      pass: this.name,
      directiveFile: CONSOLIDATION_DIRECTIVE_FILE,
      builtInDirective: CONSOLIDATION_DIRECTIVE,
      schema: consolidationReplySchema,
      signal: context.signal,
      maxOutputTokens: this.options.maxOutputTokens,
    };
    const facts = new FactCheckStage();
    const rules = {
      protection: this.options,
      unconnected: (ids: readonly string[]) => call.similarity.unconnected(ids),
      relatedByText: (a: string, b: string) => call.similarity.similar(a, b, { byCategory: false }),
      coverage: (a: string, b: string) => call.similarity.coverage(a, b),
      factCheck: (job: FactCheckJob) => facts.verdictOf(job),
    };
    const scope = { call: call.call, withCorrections: call.withCorrections };
    // A reply proposing more saves than entries shown is refused whole before anything of it is judged.
    const review = async (candidate: ConsolidationReply, label?: (position: number) => string): Promise<CallReview | undefined> => {
      if (candidate.toSave.length > call.savesPerReply || candidate.toSupersede.length > shown.size) return undefined;
      await call.prepare([...candidate.toSave.flatMap((save) => save.sourceIds ?? []), ...candidate.toSupersede.flatMap((pair) => [pair.olderId, pair.newerId])]);
      await facts.judgeAll(factCheckJobs(candidate, shown, this.options), context.signal);
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
      const answer = await gateway.ask({ ...request, schema: consolidationRepairSchema, data: renderRepairRequest(first.repairs, (id) => call.lineOf(shown.get(id)!.view), call.today) });
      const taken = new Set([...first.saves.flatMap((save) => save.sources.map((source) => source.id)), ...first.deletions.map((item) => item.id), ...first.supersessions.flatMap((pair) => [pair.older.id, pair.newer.id])]);
      const replacements = replacementsOf(answer, first.repairs, taken, { call: call.call, accepted: first.saves.map((save) => save.sources.map((source) => source.id)) });
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
              share: { shown: shown.size, asked: takenOut(reply, shown, this.options) },
            },
            call.savesPerReply,
          );
    if (admitted && reviewed) {
      return { ...reviewed, refusedWhole: false, acceptedFirstTry, repaired };
    }
    return {
      acceptedFirstTry: 0,
      repaired,
      saves: [],
      deletions: [],
      repairs: [],
      supersessions: [],
      refusals: [...(reviewed?.refusals ?? []), `call ${call.call}: the whole reply was refused (see misbehaviour); nothing of it is applied`],
      retry: [...shown.keys()],
      proposed: reviewed?.proposed ?? reply.toSave.length + new Set(reply.toDelete).size + reply.toSupersede.length,
      refusedWhole: true,
    };
  }
}

/** Embeddings of the shown items when an embedder is configured; none (BM25 alone) without one or when it fails. */
async function embeddingsOf(context: PassContext, shown: ReadonlyMap<string, ConsolidationItem>): Promise<Map<string, number[]>> {
  const { embedder, logger } = context.services;
  const signal = context.signal;
  const vectors = new Map<string, number[]>();
  if (!embedder || shown.size < 2) return vectors;
  const ids = [...shown.keys()];
  try {
    const embedded = await embedder.embed(ids.map((id) => shown.get(id)!.view.content), { signal });
    ids.forEach((id, position) => {
      const vector = embedded[position];
      if (vector) vectors.set(id, vector);
    });
  } catch (error) {
    signal.throwIfAborted();
    logger.warn('Embedding the shown entries failed; merges are checked for similarity with BM25 alone in this call.', { error: String((error as Error)?.message ?? error) });
  }
  return vectors;
}

const wordingSchema = z.object({ id: z.string(), content: z.string(), category: z.string(), tags: z.array(z.string()) });
type Wording = z.infer<typeof wordingSchema>;

/** What the cursor keeps of an entry: the wording the model saw. */
function wording(entry: MemoryEntry): Wording {
  return { id: entry.id, content: entry.content, category: entry.category, tags: entry.tags };
}

/** Entry id → the fingerprint of its wording: what the cursor records as seen (a plan holds these, not the wordings). */
function fingerprintsOf(entries: ReadonlyArray<Pick<MemoryEntry, 'id' | 'content' | 'category' | 'tags'>>): Record<string, string> {
  return Object.fromEntries(entries.map((entry) => [entry.id, wordingFingerprint(entry)]));
}

/** What `commit` needs of a plan to move the cursor (see `advanceCursor`, `nextRetries`). */
const consolidationCommitSchema = z.object({
  through: consolidationCursorSchema.shape.entries,
  feedback: consolidationCursorSchema.shape.feedback,
  feed: z.string().optional(),
  /**
   * `fingerprints`: entry id → the fingerprint of the wording considered (plans written before
   * held the wordings themselves, `entries`); `live`: every live id (the run listed them);
   * `gone`: the ids a change feed reported deleted.
   */
  seen: z.object({
    fingerprints: fingerprintsSchema.optional(),
    entries: z.array(wordingSchema).optional(),
    live: z.array(z.string()).optional(),
    gone: z.array(z.string()).optional(),
  }),
  retry: consolidationCursorSchema.shape.retry,
  ownWrites: z.array(wordingSchema),
});
type ConsolidationCommit = z.input<typeof consolidationCommitSchema>;

/** What `commit` needs when no model ran: where the pre-pass left the change feed. */
const prepassCommitSchema = z.object({ prepass: z.string() }).strict();
type PrepassCommit = z.input<typeof prepassCommitSchema>;

/** True when the stored entry still reads as the pass wrote it (nobody changed it since). */
function sameWording(stored: MemoryEntry, written: Wording): boolean {
  return (
    stored.content === written.content &&
    stored.category === written.category &&
    stored.tags.length === written.tags.length &&
    stored.tags.every((tag, index) => tag === written.tags[index])
  );
}
