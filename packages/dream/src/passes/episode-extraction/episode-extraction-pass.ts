import { episodeExtractionPass } from './episode-extraction-options';
import { type MemoryEntry } from '@reverie/core';
import { z } from 'zod';
import type { DreamServices, ModelGatewayLike, PassContext, PassPlan } from '../../engine/dream-types';
import { estimateTokens } from '../memory-consolidation/pack-calls';
import { stripRetentionTags } from '../memory-consolidation/normalise-content';
import {
  type EpisodeExtractionOptions,
  type EpisodeExtractionOptionsInput,
  episodeExtractionOptionsSchema,
} from './episode-extraction-options';
import { EpisodeLedger } from './episode-ledger';
import { episodeReplySchema } from './episode-reply';
import { packSessions } from './episode-turns';
import { LogCursor } from '../log-reading/log-cursor';
import { LogReadingPass } from '../log-reading/log-reading-pass';
import { type LogWindow, nothingNew, nothingToAsk } from '../log-reading/read-log-window';
import {
  EPISODE_DIRECTIVE,
  EPISODE_DIRECTIVE_FILE,
  renderEpisodeData,
  renderEpisodeLine,
  renderTurnLine,
  type SessionPiece,
} from './render-episode-prompt';
import { RunBudget } from '../../review/run-budget';
import { parsePassOptions } from '../parse-pass-options';

/** SPEC D18: the pass's position in the conversation log, written only after a run was applied. */
export const episodeCursorSchema = z.object({ afterSeq: z.number().int().min(0) });
export type EpisodeCursor = z.infer<typeof episodeCursorSchema>;

/** At most this many recorded episodes are shown per call, the most similar to its sessions. */
const SIMILAR_EPISODES = 10;
/** Share of a call's budget kept for the recorded episodes. */
const EPISODE_SHARE = 0.2;
/** Room kept in every call for the intro, labels and fences. */
const FRAME_TOKENS = 200;

/**
 * SPEC D6, D16–D18, B4 (REM): turns the conversation log into episodic memories — what
 * happened, when, with whom.
 *
 * 1. Reads the turns after the pass's cursor, oldest first, at most `maxTurnsPerRun`. Turns
 *    marked `[skip]`, system and tool turns are not sent; other retention hints travel as hints.
 * 2. Groups the sent turns by session and packs the sessions into calls under `tokenBudget`.
 *    Each call also shows the recorded episodes most similar to its sessions (BM25), so the
 *    model can say a session revisits one of them.
 * 3. The replies go through the guards of `EpisodeLedger` and become `memory.save` operations:
 *    new dated episodes, and reinforced (not copied) revisited ones.
 * 4. The cursor moves to the last turn read only in `commit`, once the plan is applied. A failed
 *    run leaves it where it was, so the next run reads the same turns again. The log is not cleared here: preference
 *    inference, its last reader, does that.
 */
export class EpisodeExtractionPass extends LogReadingPass<'afterSeq'> {
  readonly options: EpisodeExtractionOptions;
  protected readonly cursor = new LogCursor(this.name, episodeCursorSchema, 'afterSeq');

  constructor(options: EpisodeExtractionOptionsInput = {}) {
    super(episodeExtractionPass);
    this.options = parsePassOptions('episode-extraction', episodeExtractionOptionsSchema, options);
  }

  protected async planWindow(context: PassContext, gateway: ModelGatewayLike, window: LogWindow): Promise<PassPlan> {
    const memory = context.services.memory!;
    if (window.read.length === 0) return nothingNew(window);
    const { afterSeq, read, throughSeq, selection, notes } = window;
    const commit: EpisodeCursor = this.cursor.at(throughSeq);
    if (selection.sent.length === 0) return nothingToAsk(window, 'nothing to send to the model', commit);

    const now = context.now();
    const ledger = new EpisodeLedger(await memory.list(), { category: this.options.category, now, throughSeq, runId: context.runId });
    const budget = this.budget(now);
    const calls = packSessions(selection.sent, (turn) => estimateTokens(`${renderTurnLine(turn, budget.maxTurnChars)}\n`), budget.turns);

    const shownPerCall: string[][] = [];
    const replyBudget = new RunBudget(0);
    let proposed = 0;
    for (const [index, sessions] of calls.entries()) {
      context.signal.throwIfAborted();
      const episodes = this.similarEpisodes(ledger, sessions, budget.episodes);
      shownPerCall.push(episodes.map((entry) => entry.id));
      const data = renderEpisodeData({ today: now, sessions, episodes, maxTurnChars: budget.maxTurnChars });
      const reply = await gateway.ask({
        pass: this.name,
        directiveFile: EPISODE_DIRECTIVE_FILE,
        builtInDirective: EPISODE_DIRECTIVE,
        data,
        schema: episodeReplySchema,
        signal: context.signal,
      });
      proposed += reply.episodes.length;
      // New episodes: at most maxEpisodesPerSession per session sent; revisits: one per episode shown (SPEC B11).
      const bound = sessions.length * this.options.maxEpisodesPerSession + episodes.length;
      if (!replyBudget.admit(index + 1, { saves: reply.episodes.length, deletions: 0 }, bound)) continue;
      ledger.review(reply, {
        call: index + 1,
        sessions: new Set(sessions.map((piece) => piece.sessionId)),
        shown: new Set(episodes.map((entry) => entry.id)),
        latestSeq: new Map(sessions.map((piece) => [piece.sessionId, Math.max(...piece.turns.map((turn) => turn.seq))])),
        turns: sessions.flatMap((piece) => piece.turns.map((turn) => ({ sessionId: piece.sessionId, seq: turn.seq }))),
      });
    }

    await this.recordSelection(context, {
      afterSeq,
      throughSeq,
      calls: calls.map((sessions, index) => ({
        sessions: sessions.map((piece) => ({ sessionId: piece.sessionId, seqs: piece.turns.map((turn) => turn.seq) })),
        episodesShown: shownPerCall[index],
      })),
    });
    const { created, reinforced } = ledger.counts();
    notes.push(`${calls.length} model call(s)`, `${created} new episode(s), ${reinforced} reinforced`, ...ledger.notes);
    return {
      operations: ledger.operations(),
      itemsProcessed: read.length,
      notes,
      refusals: ledger.refusals,
      misbehaviour: replyBudget.misbehaviour,
      proposals: { proposed, accepted: created + reinforced },
      commit,
    };
  }

  /** The last logged turn this pass has turned into episodes; later turns must survive a log clear. */
  async conversationLogReadThrough(services: DreamServices): Promise<number> {
    return this.cursor.position(services.state.cursors);
  }

  /** The recorded episodes most like a call's turns, best first, within the call's share for them. */
  private similarEpisodes(ledger: EpisodeLedger, sessions: readonly SessionPiece[], budget: number): MemoryEntry[] {
    const query = sessions.flatMap((piece) => piece.turns.map((turn) => stripRetentionTags(turn.content))).join('\n');
    const shown: MemoryEntry[] = [];
    let used = 0;
    for (const entry of ledger.similar(query, SIMILAR_EPISODES)) {
      const cost = estimateTokens(`${renderEpisodeLine(entry)}\n`);
      if (used + cost > budget) continue;
      used += cost;
      shown.push(entry);
    }
    return shown;
  }

  /** How a call's budget splits: the directive and frame off the top, a share for episodes, the rest for turns. */
  private budget(now: Date): { turns: number; episodes: number; maxTurnChars: number } {
    const total = this.options.tokenBudget;
    const episodes = Math.floor(total * EPISODE_SHARE);
    const frame =
      estimateTokens(EPISODE_DIRECTIVE) +
      estimateTokens(renderEpisodeData({ today: now, sessions: [], episodes: [], maxTurnChars: 0 })) +
      FRAME_TOKENS;
    const turns = Math.max(Math.floor(total / 4), total - frame - episodes);
    // A single turn takes at most half a call (4 characters per token).
    return { turns, episodes, maxTurnChars: turns * 2 };
  }
}
