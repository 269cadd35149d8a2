import { preferenceInferencePass } from './preference-inference-options';
import { type FeedbackSignal, type IFeedbackStore, isReverieError } from '@reverie/core';
import { z } from 'zod';
import type { ModelGatewayLike, PassContext, PassPlan } from '../../engine/dream-types';
import { LogCursor } from '../log-reading/log-cursor';
import { LogReadingPass } from '../log-reading/log-reading-pass';
import { type LogWindow, nothingNew } from '../log-reading/read-log-window';
import { PreferenceLedger } from './preference-ledger';
import {
  type PreferenceInferenceOptions,
  type PreferenceInferenceOptionsInput,
  preferenceInferenceOptionsSchema,
} from './preference-inference-options';
import { preferenceReplySchema } from './preference-reply';
import { groupBySession, PREFERENCE_DIRECTIVE, PREFERENCE_DIRECTIVE_FILE, renderPreferenceData } from './render-preference-prompt';
import { replyAllowance, RunBudget } from '../../review/run-budget';
import { parsePassOptions } from '../parse-pass-options';
import type { DreamOperation } from '@reverie/dream-state';

/**
 * The last seq whose turns this pass has already inferred from. Turns up to it that another
 * log reader still needs survive a clear; the next run clears them without sending them again.
 */
export const preferenceCursorSchema = z.object({ inferredThroughSeq: z.number().int().min(0) });
export type PreferenceCursor = z.infer<typeof preferenceCursorSchema>;

/** Where the preferences on record live: every category under it (`user-preferences/**`). */
const PREFERENCES_PREFIX = 'user-preferences';
/** At most this many preferences on record are shown to the model, the most recently seen. */
const SHOWN_PREFERENCES = 200;
const DAY_MS = 86_400_000;

/**
 * SPEC D11, D16, D17, B4 (REM, the last reader of the conversation log): infers lasting user
 * preferences from what the user said, then clears the log it read.
 *
 * 1. Reads the log after its cursor, oldest first, at most `maxTurnsPerRun` turns. Turns marked
 *    `[skip]`, system and tool turns are not sent; other retention hints travel as hints.
 * 2. One model call sees the turns (user turns numbered by seq), the feedback of the last
 *    `feedbackDays` (at most `maxFeedback`) and the preferences on record (`user-preferences/**`).
 * 3. The reply goes through `PreferenceLedger`: evidence thresholds by strength, permission
 *    flag, no retention tags, reinforcement instead of copies.
 * 4. The plan always ends by clearing the log through what was read, but never past what another
 *    log reader has finished with (`conversationLogHorizon`): turns appended during the run and
 *    turns still unread by others survive. When the model call fails, the plan holds only that
 *    clear and reports the failure (the log is cleared whether inference succeeded or not). An
 *    aborted run plans nothing and clears nothing.
 */
export class PreferenceInferencePass extends LogReadingPass<'inferredThroughSeq'> {
  readonly options: PreferenceInferenceOptions;
  protected readonly cursor = new LogCursor(this.name, preferenceCursorSchema, 'inferredThroughSeq');

  constructor(options: PreferenceInferenceOptionsInput = {}) {
    super(preferenceInferencePass);
    this.options = parsePassOptions('preference-inference', preferenceInferenceOptionsSchema, options);
  }

  protected async planWindow(context: PassContext, gateway: ModelGatewayLike, window: LogWindow): Promise<PassPlan> {
    const memory = context.services.memory!;
    const conversationLog = context.services.conversationLog!;
    const { afterSeq, read, throughSeq: readThroughSeq, selection, notes } = window;

    if (read.length === 0) {
      // Nothing new; turns already inferred from may still wait for another reader to finish.
      const clearNotes: string[] = [];
      const clear = await this.clearOperation(context, readThroughSeq, clearNotes);
      const oldest = (await conversationLog.read({ limit: 1 }))[0];
      if (!clear || oldest === undefined || oldest.seq > clear.throughSeq) return nothingNew(window);
      return { operations: [clear], itemsProcessed: 0, notes: [...notes, ...clearNotes], refusals: [] };
    }

    const commit: PreferenceCursor = this.cursor.at(readThroughSeq);
    const sessions = groupBySession(selection.sent);

    const userSeqs = new Set(selection.sent.filter((turn) => turn.role === 'user').map((turn) => turn.seq));
    if (userSeqs.size === 0) {
      notes.push('no user turn to send to the model');
      const clear = await this.clearOperation(context, readThroughSeq, notes);
      return { operations: clear ? [clear] : [], itemsProcessed: read.length, notes, refusals: [], commit };
    }

    const now = context.now();
    const preferences = await memory.list({ category: PREFERENCES_PREFIX });
    const shown = [...preferences]
      .sort((a, b) => (a.lastSeenAt < b.lastSeenAt ? 1 : a.lastSeenAt > b.lastSeenAt ? -1 : 0))
      .slice(0, SHOWN_PREFERENCES);
    const feedback = await this.recentFeedback(context.services.feedback, now);
    const data = renderPreferenceData({ today: now, sessions, feedback, preferences: shown, maxTurnChars: this.options.maxTurnChars });
    await this.recordSelection(context, {
      afterSeq,
      readThroughSeq,
      sentSeqs: selection.sent.map((turn) => turn.seq),
      feedback: feedback.map((signal) => signal.id),
      preferencesShown: shown.map((entry) => entry.id),
    });

    let reply;
    try {
      reply = await gateway.ask({
        pass: this.name,
        directiveFile: PREFERENCE_DIRECTIVE_FILE,
        builtInDirective: PREFERENCE_DIRECTIVE,
        data,
        schema: preferenceReplySchema,
        signal: context.signal,
      });
    } catch (error) {
      if (isAbort(error, context.signal)) throw error;
      // SPEC D11: the log is cleared whether inference succeeded or not. No cursor move: turns kept
      // for other readers are sent again next time.
      const message = isReverieError(error) ? `${error.code}: ${error.message}` : String((error as Error)?.message ?? error);
      notes.push('model call failed: nothing inferred; the log is cleared anyway');
      const clear = await this.clearOperation(context, readThroughSeq, notes);
      return { operations: clear ? [clear] : [], itemsProcessed: read.length, notes, refusals: [], failure: message };
    }
    context.signal.throwIfAborted();

    const ledger = new PreferenceLedger(preferences, {
      category: this.options.category,
      now,
      userSeqs,
      sessionOf: new Map(selection.sent.map((turn) => [turn.seq, turn.sessionId])),
      runId: context.runId,
    });
    const replyBudget = new RunBudget(0);
    // Every preference cites user turns as evidence: one per user turn sent, within the reply allowance (SPEC B11).
    if (replyBudget.admit(1, { saves: reply.preferences.length, deletions: 0 }, replyAllowance(userSeqs.size))) ledger.review(reply);
    const { created, reinforced } = ledger.counts();
    notes.push(
      `${feedback.length} feedback signal(s) and ${shown.length} preference(s) on record shown`,
      `${created} new preference(s), ${reinforced} reinforced`,
      ...ledger.notes,
    );
    const operations: DreamOperation[] = ledger.operations();
    const clear = await this.clearOperation(context, readThroughSeq, notes);
    if (clear) operations.push(clear);
    return {
      operations,
      itemsProcessed: read.length,
      notes,
      refusals: ledger.refusals,
      misbehaviour: replyBudget.misbehaviour,
      proposals: { proposed: reply.preferences.length, accepted: created + reinforced },
      commit,
    };
  }

  /**
   * Clears through what this pass read, but no further than every other log reader has read
   * (SPEC D11, D18); undefined when that is nothing.
   */
  private async clearOperation(
    context: PassContext,
    readThroughSeq: number,
    notes: string[],
  ): Promise<Extract<DreamOperation, { op: 'conversation-log.clear' }> | undefined> {
    const horizon = await context.conversationLogHorizon();
    const throughSeq = Math.min(readThroughSeq, horizon);
    if (throughSeq < readThroughSeq) notes.push(`turns after seq ${Math.max(0, throughSeq)} kept: another pass has not read them yet`);
    if (throughSeq <= 0) return undefined;
    notes.push(`conversation log cleared through seq ${throughSeq}`);
    return {
      op: 'conversation-log.clear',
      throughSeq,
      reason: `preference-inference: turns through seq ${throughSeq} read by every log reader`,
    };
  }

  /** Feedback from the last `feedbackDays`, at most `maxFeedback` (the most recent); none without a feedback store. */
  private async recentFeedback(store: IFeedbackStore | undefined, now: Date): Promise<FeedbackSignal[]> {
    if (!store || this.options.maxFeedback === 0 || this.options.feedbackDays === 0) return [];
    const since = new Date(now.getTime() - this.options.feedbackDays * DAY_MS).toISOString();
    return store.list({ since, limit: this.options.maxFeedback });
  }
}

/** An aborted run (cancelled, or preempted by a user turn): it must not clear anything. */
function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || isReverieError(error, 'ABORTED') || (error instanceof Error && error.name === 'AbortError');
}
