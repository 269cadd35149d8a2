import type { TelemetrySettings } from 'ai';
import type { LanguageModel } from 'ai';
import { type ILogger, type ILongTermMemory, MAX_SEARCH_TEXT_LENGTH, type MemoryLineageDraft } from '@reverie/core';
import { lineageTurnRanges, loadOnce } from '@reverie/core/internal';
import type { ForgottenFactCheck } from '@reverie/dream';
import type { ConversationMemory, RecordedTurn } from '../conversation/conversation-memory';
import { buildExtractionPrompt, exchangeWithinBudget } from './fact-extraction-prompt';
import { isSameFact, parseExtractionReply, reviewExtractedFacts } from './review-extracted-facts';

/** The AI SDK loads with the first extraction, not with the package (docs/architecture.md). */
const loadAiSdk = loadOnce(() => import('ai'));

/** When facts are taken from a conversation: after each exchange, or once a session ends. */
export type ExtractionMode = 'turn' | 'session-end';

/** Facts one reply may propose, per mode: a reply proposing more is refused whole. */
export const MAX_EXTRACTED_FACTS: Readonly<Record<ExtractionMode, number>> = { turn: 5, 'session-end': 10 };
/** The name extracted facts record as the `pass` of their lineage (SPEC B10). */
export const EXTRACTION_PASS = 'fact-extraction';
/** The tag and the `source` metadata of extracted facts. */
export const EXTRACTED = 'extracted';
const DEFAULT_TIMEOUT_MS = 60_000;
/** Entries a fact is compared with before it is saved. */
const DUPLICATE_CANDIDATES = 5;

export interface TurnFactExtractorServices {
  memory: ILongTermMemory;
  /** The host's model, wrapped so its calls are background calls (never recorded as turns). */
  model: LanguageModel;
  logger: ILogger;
  /** Where the turns' log seqs come from once their appends have settled. */
  conversation: ConversationMemory;
  mode: ExtractionMode;
  timeoutMs?: number;
  /** SPEC E3: the host's AI SDK telemetry settings, given to the extraction call. */
  telemetry?: TelemetrySettings | undefined;
  /** SPEC B14: the facts the user had Reverie forget; an extracted fact that states one is not saved. */
  forgotten?: ForgottenFactCheck | undefined;
}

/**
 * Facts taken from turns (`withMemory({ extract })`): after an exchange ('turn') or when a session
 * ends ('session-end'), in the background — never on the turn's path —, the model proposes the
 * durable facts the user stated; each passes `reviewExtractedFacts` (said in the exchange, no
 * instruction, the reply's budgets), is compared with what memory holds (`isSameFact`), and is
 * saved with its lineage: the session and the log seqs of its turns (SPEC B10). Whatever fails is
 * a warning; nothing a turn waits for. `idle()` resolves once every extraction started has ended.
 */
export class TurnFactExtractor {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly services: TurnFactExtractorServices) {}

  /** A user message and its reply were recorded (`turns`: the exchange, as the session holds them). */
  exchangeRecorded(sessionId: string, turns: readonly RecordedTurn[]): void {
    if (this.services.mode === 'turn') this.start(sessionId, turns, 'turn');
  }

  /** A user session ended (`endSession`, or idle) with these turns. */
  sessionEnded(sessionId: string, turns: readonly RecordedTurn[]): void {
    if (this.services.mode === 'session-end') this.start(sessionId, turns, 'session-end');
  }

  /** Resolves once every extraction started so far has ended. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private start(sessionId: string, turns: readonly RecordedTurn[], mode: ExtractionMode): void {
    if (!turns.some((turn) => turn.role === 'user' && turn.content.trim() !== '')) return;
    const task = this.extract(sessionId, [...turns], mode).catch((error: unknown) => this.lost(sessionId, turns, String(error)));
    this.pending.add(task);
    void task.finally(() => this.pending.delete(task));
  }

  private async extract(sessionId: string, turns: RecordedTurn[], mode: ExtractionMode): Promise<void> {
    const { memory, model, logger, conversation } = this.services;
    const exchange = exchangeWithinBudget(
      turns.filter((turn) => turn.content.trim() !== '').map(({ role, content, timestamp }) => ({ role, content, timestamp })),
    );
    const maxFacts = MAX_EXTRACTED_FACTS[mode];
    const { system, prompt } = buildExtractionPrompt(exchange, maxFacts);
    let text: string;
    try {
      const { generateText } = await loadAiSdk();
      ({ text } = await generateText({
        model,
        system,
        prompt,
        abortSignal: AbortSignal.timeout(this.services.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        ...(this.services.telemetry ? { experimental_telemetry: this.services.telemetry } : {}),
      }));
    } catch (error) {
      this.lost(sessionId, turns, `the model call failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    let proposed;
    try {
      proposed = parseExtractionReply(text, maxFacts);
    } catch (error) {
      this.lost(sessionId, turns, `its reply was refused: ${(error as Error).message}`);
      return;
    }
    const review = reviewExtractedFacts(exchange, proposed);
    if (review.refused.length > 0) {
      logger.info(
        `Fact extraction refused ${review.refused.length} proposed fact(s) of session ${sessionId} that the conversation does not support.`,
        {
          sessionId,
          refused: review.refused,
        },
      );
    }
    if (review.accepted.length === 0) return;
    // The turns' log seqs are known once their appends have settled.
    await conversation.settled();
    const lineage = extractionLineage(sessionId, turns);
    const saved: string[] = [];
    const forgotten = await this.services.forgotten?.matcher();
    for (const fact of review.accepted) {
      if (forgotten?.(fact.content)) {
        logger.info('An extracted fact states something the user had Reverie forget; not saved.', { sessionId });
        continue;
      }
      const known = await memory.search({ text: fact.content.slice(0, MAX_SEARCH_TEXT_LENGTH), maxResults: DUPLICATE_CANDIDATES });
      const same = known.find((hit) => isSameFact(hit.entry.content, fact.content));
      if (same) {
        logger.debug('An extracted fact is in memory already; not saved again.', { sessionId, fact: fact.content, entry: same.entry.id });
        continue;
      }
      try {
        const entry = await memory.save({
          content: fact.content,
          ...(fact.category === undefined ? {} : { category: fact.category }),
          tags: [...new Set([...fact.tags.slice(0, 31), EXTRACTED])],
          metadata: { source: EXTRACTED },
          lineage,
        });
        saved.push(entry.id);
      } catch (error) {
        logger.warn(
          `An extracted fact of session ${sessionId} could not be saved, so memory does not have it: ${(error as Error).message}. The turns stay in the conversation log for the dream cycle.`,
          { sessionId, fact: fact.content },
        );
      }
    }
    logger.debug('Extracted facts saved.', { sessionId, saved });
  }

  /** The warning of an extraction that produced nothing: what is lost, and what to do. */
  private lost(sessionId: string, turns: readonly RecordedTurn[], reason: string): void {
    this.services.logger.warn(
      `Fact extraction for session ${sessionId} failed, so no fact of its last ${turns.length} turn(s) was saved (${reason}). ` +
        'The turns stay in the conversation log for the dream cycle. If this keeps happening, check the model given to createReverie({ model }), or leave withMemory({ extract }) out.',
      { sessionId, mode: this.services.mode },
    );
  }
}

/** SPEC B10: an extracted fact comes from a session and the log seqs of its turns (when they were logged). */
function extractionLineage(sessionId: string, turns: readonly RecordedTurn[]): MemoryLineageDraft {
  const logged = turns.flatMap((turn) => (turn.seq === undefined ? [] : [{ sessionId, seq: turn.seq }]));
  return {
    origin: { kind: 'session', sessionId, pass: EXTRACTION_PASS, ...(logged.length > 0 ? { turns: lineageTurnRanges(logged) } : {}) },
  };
}
