import { skillGapPass } from './skill-gap-options';
import { Bm25Index, type Skill, skillDocumentText } from '@reverie/core';
import { z } from 'zod';
import type { DreamServices, ModelGatewayLike, PassContext, PassPlan } from '../../engine/dream-types';
import { packSessions } from '../episode-extraction/episode-turns';
import { LogCursor } from '../log-reading/log-cursor';
import { LogReadingPass } from '../log-reading/log-reading-pass';
import { type LogWindow, nothingNew, nothingToAsk } from '../log-reading/read-log-window';
import { renderTurnLine, type SessionPiece } from '../episode-extraction/render-episode-prompt';
import { estimateTokens } from '../memory-consolidation/pack-calls';
import { openingRequests, type RecurringTerm, recurringTerms } from './recurring-terms';
import {
  type CallTerm,
  renderCatalogueLine,
  renderSkillGapData,
  renderTermLine,
  SKILL_GAP_DIRECTIVE,
  SKILL_GAP_DIRECTIVE_FILE,
} from './render-skill-gap-prompt';
import { type SkillGapOptions, type SkillGapOptionsInput, skillGapOptionsSchema } from './skill-gap-options';
import { skillGapReplySchema } from './skill-gap-reply';
import { SkillGapReview } from './skill-gap-review';
import { replyAllowance, RunBudget } from '../../review/run-budget';
import { parsePassOptions } from '../parse-pass-options';

/** SPEC D18: the pass's position in the conversation log, written only after a run was applied. */
export const skillGapCursorSchema = z.object({ afterSeq: z.number().int().min(0) });
export type SkillGapCursor = z.infer<typeof skillGapCursorSchema>;

/** At most this many recurring terms are shown per call, the most widespread first. */
const MAX_TERMS_PER_CALL = 40;
/** Share of a call's budget kept for the skill catalogue. */
const CATALOGUE_SHARE = 0.25;
/** Room kept in every call for the intro, labels and fences. */
const FRAME_TOKENS = 300;

/**
 * SPEC D8, D16–D18, B4 (REM): notices kinds of requests that keep coming back across sessions
 * and that no skill covers yet, and writes a skill for each.
 *
 * 1. Reads the turns after the pass's cursor, oldest first, at most `maxTurnsPerRun`. Turns
 *    marked `[skip]`, system and tool turns are not sent; other retention hints travel as hints.
 * 2. The host takes each session's first user message, tokenises it and keeps the terms found in
 *    at least `minSessions` sessions (`recurringTerms`). No recurring term: no model call.
 * 3. Only sessions whose opening holds a recurring term are sent, grouped so sessions sharing a
 *    term travel together, packed into calls under `tokenBudget`. Each call shows its recurring
 *    terms with counts and the skill catalogue (names and summaries). A call whose sessions share
 *    no term is not asked.
 * 4. The replies go through `SkillGapReview` and become `skill.save` operations for new skills.
 * 5. The cursor moves to the last turn read only in `commit`, once the plan is applied; the log
 *    is not cleared here.
 */
export class SkillGapPass extends LogReadingPass<'afterSeq'> {
  readonly options: SkillGapOptions;
  protected readonly cursor = new LogCursor(this.name, skillGapCursorSchema, 'afterSeq');

  constructor(options: SkillGapOptionsInput = {}) {
    super(skillGapPass);
    this.options = parsePassOptions('skill-gap', skillGapOptionsSchema, options);
  }

  protected async planWindow(context: PassContext, gateway: ModelGatewayLike, window: LogWindow): Promise<PassPlan> {
    const skills = context.services.skills!;
    if (window.read.length === 0) return nothingNew(window);
    const { afterSeq, read, throughSeq, selection, notes } = window;
    const commit: SkillGapCursor = this.cursor.at(throughSeq);

    const terms = recurringTerms(openingRequests(selection.sent), { minSessions: this.options.minSessions });
    if (terms.length === 0) return nothingToAsk(window, 'no request recurs across sessions', commit);

    const sessionOrder = sessionsByTerm(terms);
    const unsent = new Set(selection.sent.map((turn) => turn.sessionId)).size - sessionOrder.length;
    notes.push(`${terms.length} recurring term(s) in the opening requests of ${sessionOrder.length} session(s)`);
    if (unsent > 0) notes.push(`${unsent} session(s) without a recurring term not sent`);

    const catalogue = await skills.list();
    const review = new SkillGapReview(catalogue, { ...this.options, now: context.now() });
    const budget = this.budget(terms);
    const rank = new Map(sessionOrder.map((id, index) => [id, index]));
    const ordered = selection.sent
      .filter((turn) => rank.has(turn.sessionId))
      .sort((a, b) => rank.get(a.sessionId)! - rank.get(b.sessionId)! || a.seq - b.seq);
    const calls = packSessions(ordered, (turn) => estimateTokens(`${renderTurnLine(turn, budget.maxTurnChars)}\n`), budget.turns);
    const catalogueIndex = new CatalogueIndex(catalogue);
    const replyBudget = new RunBudget(0);
    let proposed = 0;

    const asked: Array<
      { sessions: SessionPiece[]; terms: CallTerm[]; skillsListed: string[] } | { sessions: SessionPiece[]; notAsked: string }
    > = [];
    let callNumber = 0;
    for (const sessions of calls) {
      context.signal.throwIfAborted();
      const callTerms = termsOf(terms, sessions, this.options.minSessions);
      if (callTerms.length === 0) {
        notes.push(
          `sessions ${sessions.map((piece) => JSON.stringify(piece.sessionId)).join(', ')} share no recurring term within one call: not sent`,
        );
        asked.push({ sessions, notAsked: 'no recurring term among these sessions' });
        continue;
      }
      callNumber += 1;
      const listed = catalogueIndex.fit(callTerms.map((term) => term.term).join(' '), budget.catalogue);
      const data = renderSkillGapData({
        terms: callTerms,
        catalogue: listed,
        catalogueTotal: catalogue.length,
        sessions,
        minSessions: this.options.minSessions,
        maxTurnChars: budget.maxTurnChars,
      });
      const reply = await gateway.ask({
        pass: this.name,
        directiveFile: SKILL_GAP_DIRECTIVE_FILE,
        builtInDirective: SKILL_GAP_DIRECTIVE,
        data,
        schema: skillGapReplySchema,
        signal: context.signal,
      });
      proposed += reply.skills.length;
      // One new skill per recurring term shown in the call, within the reply allowance (SPEC B11).
      if (replyBudget.admit(callNumber, { saves: reply.skills.length, deletions: 0 }, replyAllowance(callTerms.length))) {
        review.review(reply, { call: callNumber, sessions: new Set(sessions.map((piece) => piece.sessionId)) });
      }
      asked.push({ sessions, terms: callTerms, skillsListed: listed.map((skill) => skill.name) });
    }

    const operations = review.operations();
    await this.recordSelection(context, {
      afterSeq,
      throughSeq,
      terms,
      calls: asked.map(({ sessions, ...rest }) => ({
        sessions: sessions.map((piece) => ({ sessionId: piece.sessionId, seqs: piece.turns.map((turn) => turn.seq) })),
        ...rest,
      })),
    });
    notes.push(`${callNumber} model call(s)`, `${review.created} new skill(s)`, ...review.notes);
    return {
      operations,
      itemsProcessed: read.length,
      notes,
      refusals: review.refusals,
      misbehaviour: replyBudget.misbehaviour,
      proposals: { proposed, accepted: review.created },
      commit,
      details: { recurringTerms: terms.slice(0, MAX_TERMS_PER_CALL).map(({ term, count }) => ({ term, count })) },
    };
  }

  /** The last logged turn this pass has looked at; later turns must survive a log clear. */
  async conversationLogReadThrough(services: DreamServices): Promise<number> {
    return this.cursor.position(services.state.cursors);
  }

  /** How a call's budget splits: directive, frame and terms off the top, a share for the catalogue, the rest for turns. */
  private budget(terms: readonly RecurringTerm[]): { turns: number; catalogue: number; maxTurnChars: number } {
    const total = this.options.tokenBudget;
    const catalogue = Math.floor(total * CATALOGUE_SHARE);
    const termLines = terms
      .slice(0, MAX_TERMS_PER_CALL)
      .map((term) => estimateTokens(`${renderTermLine({ term: term.term, sessionIds: term.sessionIds, total: term.count })}\n`))
      .reduce((sum, cost) => sum + cost, 0);
    const frame = estimateTokens(SKILL_GAP_DIRECTIVE) + FRAME_TOKENS + termLines;
    const turns = Math.max(Math.floor(total / 4), total - frame - catalogue);
    // A single turn takes at most half a call (4 characters per token).
    return { turns, catalogue, maxTurnChars: turns * 2 };
  }
}

/** Sessions that open with a recurring term, those of the most widespread terms first, each once. Pure. */
function sessionsByTerm(terms: readonly RecurringTerm[]): string[] {
  const order = new Set<string>();
  for (const term of terms) for (const id of term.sessionIds) order.add(id);
  return [...order];
}

/** The terms that recur among one call's sessions, with those sessions, at most `MAX_TERMS_PER_CALL`. Pure. */
function termsOf(terms: readonly RecurringTerm[], sessions: readonly SessionPiece[], minSessions: number): CallTerm[] {
  const inCall = new Set(sessions.map((piece) => piece.sessionId));
  return terms
    .map((term) => ({ term: term.term, sessionIds: term.sessionIds.filter((id) => inCall.has(id)), total: term.count }))
    .filter((term) => term.sessionIds.length >= minSessions)
    .slice(0, MAX_TERMS_PER_CALL);
}

/** The skill catalogue, cut to a call's share when it does not fit whole: the skills most related to the call's terms first. */
class CatalogueIndex {
  private readonly index = new Bm25Index();
  private readonly byName: Map<string, Skill>;
  private readonly fullCost: number;

  constructor(private readonly skills: readonly Skill[]) {
    this.byName = new Map(skills.map((skill) => [skill.name, skill]));
    this.fullCost = skills.reduce((sum, skill) => sum + lineCost(skill), 0);
    for (const skill of skills) this.index.set(skill.name, skillDocumentText(skill));
  }

  fit(query: string, budget: number): Skill[] {
    if (this.fullCost <= budget) return [...this.skills];
    const ranked = this.index.search(query, { limit: this.skills.length }).map((hit) => this.byName.get(hit.id)!);
    const rankedNames = new Set(ranked.map((skill) => skill.name));
    const rest = this.skills.filter((skill) => !rankedNames.has(skill.name));
    const listed: Skill[] = [];
    let used = 0;
    for (const skill of [...ranked, ...rest]) {
      const cost = lineCost(skill);
      if (used + cost > budget) continue;
      used += cost;
      listed.push(skill);
    }
    return listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}

function lineCost(skill: Skill): number {
  return estimateTokens(`${renderCatalogueLine(skill)}\n`);
}
