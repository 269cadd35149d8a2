import { memoryConsolidationPass } from './memory-consolidation-options';
import { DeclaredPass } from '../../engine/declared-pass';
import { DEFAULT_DECAY_OPTIONS, withEffectiveImportanceAt } from '@reverie/core';
import type { DreamServices, PassContext, PassPlan, PassSkip } from '../../engine/dream-types';
import { describeServiceNeeds } from '../../engine/service-needs';
import { storeLookup } from '../../review/neighbour-lookup';
import { deletionBudget, RunBudget } from '../../review/run-budget';
import { SourceSimilarity } from '../../review/source-similarity';
import { parsePassOptions } from '../parse-pass-options';
import { type AskedCall, askCall, embeddingsOf, repairAndAdmit } from './ask-and-review';
import { assembleOperations } from './assemble-operations';
import { itemLookup } from './candidate-clusters';
import { commitConsolidation, type ConsolidationCommit, fingerprintsOf, type PrepassCommit, wording } from './consolidation-commit';
import { changedSince, consolidationCursorOf, dueRetries, nextRetries } from './consolidation-cursor';
import { buildConsolidationItems } from './consolidation-item';
import {
  type MemoryConsolidationOptions,
  type MemoryConsolidationOptionsInput,
  memoryConsolidationOptionsSchema,
} from './memory-consolidation-options';
import { packConsolidationCalls } from './pack-consolidation-calls';
import { cachedEntryLines, renderConsolidationData } from './render-consolidation-prompt';
import { selectAll, selectChanged, unseenFeedback } from './select-consolidation-items';
import { loadWorkingSet } from './working-set';

/** Embeddings count two entries as similar from this cosine similarity on (SPEC M4's minSimilarity). */
const MIN_COSINE = 0.5;
/** Prompt lines kept for reuse in one run (about 300 bytes each): every line of an incremental run, a slice of an initial one. */
const MAX_CACHED_LINES = 8192;

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
export class MemoryConsolidationPass extends DeclaredPass {
  readonly options: MemoryConsolidationOptions;

  constructor(options: MemoryConsolidationOptionsInput = {}) {
    super(memoryConsolidationPass);
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

    const feedback = await unseenFeedback(context.services.feedback, cursor, now, this.options);
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
      this.options.strategy === 'full'
        ? selectAll(items, this.options)
        : await selectChanged(items, itemOfEntry, scope, corrections, retrying, lookup, context.signal, this.options);
    selection.notes.splice(1, 0, ...scope.notes);

    const lineOf = cachedEntryLines(MAX_CACHED_LINES);
    const calls = packConsolidationCalls(selection.groups, byId, feedback, now, lineOf, this.options);
    if (calls.length === 0 && corrections.length > 0) calls.push([]);
    const sentFeedback = calls.length > 0 ? feedback : [];
    const shownIds = calls.flat();
    // The similarity guard looks up the neighbours of a merge's sources: with a feed, ask the store
    // for those it was not asked about yet, once the reply names them.
    const feed = scope.feed;
    const similarityNeighbours = Math.min(100, Math.max(this.options.neighbours, this.options.maxClusterSize));
    const prepare = feed
      ? (ids: readonly string[]) =>
          feed.fetch(
            ids.filter((id) => byId.has(id)),
            similarityNeighbours,
            context.signal,
          )
      : async () => undefined;
    const budget = new RunBudget(deletionBudget(this.options.deletionCap, shownIds.length), this.options.deletionCap);

    // Every call is asked first; the items their replies got refused go to the model in one repair request.
    const asked: AskedCall[] = [];
    for (const [index_, ids] of calls.entries()) {
      context.signal.throwIfAborted();
      const shown = new Map(ids.map((id) => [id, byId.get(id)!]));
      const withFeedback = index_ === 0 ? sentFeedback : [];
      const data = renderConsolidationData({
        entries: ids.map((id) => byId.get(id)!.view),
        feedback: withFeedback,
        today: now,
        line: lineOf,
      });
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
      asked.push(
        await askCall(context, this.name, this.options, data, shown, {
          call: index_ + 1,
          withCorrections: correctionsShown > 0,
          similarity,
          prepare,
          // A reply rewrites at most every entry shown, plus one anti-pattern per correction.
          savesPerReply: ids.length + correctionsShown,
          lineOf,
        }),
      );
    }
    const reviews = await repairAndAdmit(context, this.name, this.options, asked, budget, now);

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
      notes.push(
        `${groupsShown} pre-pass group(s) shown as their merged form under a member's id (the merged entry itself is not saved yet)`,
      );
    }
    const refused = new Set(reviews.flatMap((review) => review.retry));
    const retries = nextRetries(cursor.retry, { refused, shown: new Set(shownIds), isLive: scope.isLive, now }, this.options);
    if (refused.size > 0)
      notes.push(`${refused.size - retries.givenUp.length} entr(y/ies) whose merge was refused will be offered to the model again`);
    if (retries.givenUp.length > 0)
      notes.push(
        `gave up on ${retries.givenUp.length} entr(y/ies) refused ${this.options.maxRetries + 1} times: ${retries.givenUp.join(', ')}`,
      );
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
        repairs: reviews.some((review) => review.repaired) ? 1 : 0,
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
   * that landed, and keeps the plan's retry queue (see `commitConsolidation`).
   */
  commit(services: DreamServices, data: unknown): Promise<void> {
    return commitConsolidation(services, this.name, data);
  }
}
