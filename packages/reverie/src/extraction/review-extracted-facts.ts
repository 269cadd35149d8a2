import { z } from 'zod';
import { categorySchema, detectInjection, ReverieModelReplyError, tagsSchema } from '@reverie/core';
import {
  analyseText,
  describeIssues,
  extractJsonObject,
  isSystemCategory,
  judgeFactPreservation,
  SYSTEM_CATEGORY,
} from '@reverie/core/internal';
import type { ExchangeTurn } from './fact-extraction-prompt';

/** The longest fact kept: one sentence or two. */
export const MAX_FACT_CHARS = 500;
/** The longest reply read at all; a longer one is refused before it is parsed. */
export const MAX_EXTRACTION_REPLY_CHARS = 20_000;
/**
 * Who the facts are about, said on the host's side: the rules ask for "The user …", so these
 * words are never new in a fact. Without it, "I am vegetarian" → "The user is vegetarian" would
 * count "user" as something the exchange did not say.
 */
export const FACT_SUBJECT = 'The user';

const proposedFactSchema = z.object({
  content: z.string(),
  category: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
});

/** The reply contract: `{"facts": [{"content", "category"?, "tags"?}]}`, possibly empty. */
export const extractionReplySchema = z.object({ facts: z.array(proposedFactSchema) });
export type ProposedFact = z.output<typeof proposedFactSchema>;

/** A fact that passed the review, ready to be saved. */
export interface ExtractedFact {
  content: string;
  category: string | undefined;
  tags: string[];
}

export interface ExtractionReview {
  accepted: ExtractedFact[];
  /** Each refused fact and why. */
  refused: Array<{ content: string; reason: string }>;
}

/**
 * Reads a model's extraction reply (after `<think>` blocks and prose around it); MODEL_REPLY_INVALID
 * when it is too long to read, holds no JSON object, does not fit the contract, or proposes more
 * than `maxFacts` facts (a budget: such a reply is refused whole, nothing saved).
 */
export function parseExtractionReply(text: string, maxFacts: number): ProposedFact[] {
  if (text.length > MAX_EXTRACTION_REPLY_CHARS) {
    throw new ReverieModelReplyError(
      `The extraction reply is ${text.length} characters long, more than the ${MAX_EXTRACTION_REPLY_CHARS} read; it was not parsed.`,
      {
        details: { length: text.length },
      },
    );
  }
  const json = extractJsonObject(text);
  if (json === undefined) throw new ReverieModelReplyError('The extraction reply holds no JSON object.', { details: { reply: text } });
  const result = extractionReplySchema.safeParse(json);
  if (!result.success) {
    throw new ReverieModelReplyError(`The extraction reply does not fit the contract: ${describeIssues(result.error)}`, {
      cause: result.error,
      details: { reply: text },
    });
  }
  if (result.data.facts.length > maxFacts) {
    throw new ReverieModelReplyError(
      `The extraction reply proposes ${result.data.facts.length} facts, more than the ${maxFacts} allowed; none was saved.`,
      {
        details: { facts: result.data.facts.length },
      },
    );
  }
  return result.data.facts;
}

/**
 * The review every extracted fact passes before it is saved, the rule book of the prompt
 * (SPEC B4, B11): a fact is one storable sentence of at most MAX_FACT_CHARS, filed under a valid
 * category that is not the host's (`_system/`); it addresses nobody and carries no instruction
 * (`detectInjection`, whatever the exchange said); and it is said in the exchange by the user
 * (`judgeFactPreservation` with `excerpt` against the user's turns: no name, number, date,
 * negation or statement they do not make, little new wording, no negation of what they say — the
 * turns' days are known dates). What the assistant said is never enough: a model's guess about
 * the user ("you probably prefer window seats") does not become a fact. A fact proposed twice is
 * kept once. Pure.
 */
export function reviewExtractedFacts(exchange: readonly ExchangeTurn[], proposed: readonly ProposedFact[]): ExtractionReview {
  const sources = [FACT_SUBJECT, ...exchange.filter((turn) => turn.role === 'user').map((turn) => turn.content)];
  const knownDates = [...new Set(exchange.map((turn) => turn.timestamp.slice(0, 10)))];
  const accepted: ExtractedFact[] = [];
  const refused: ExtractionReview['refused'] = [];
  const seen = new Set<string>();
  for (const fact of proposed) {
    const content = fact.content.replace(/\s+/g, ' ').trim();
    const refuse = (reason: string) => refused.push({ content, reason });
    if (content === '') {
      refuse('it is empty');
      continue;
    }
    if (content.length > MAX_FACT_CHARS) {
      refuse(`it is ${content.length} characters long, more than the ${MAX_FACT_CHARS} of a fact`);
      continue;
    }
    const category = fact.category == null || fact.category.trim() === '' ? undefined : fact.category.trim();
    if (category !== undefined) {
      const valid = categorySchema.safeParse(category);
      if (!valid.success) {
        refuse(`its category ${JSON.stringify(category)} is not one: ${describeIssues(valid.error)}`);
        continue;
      }
      if (isSystemCategory(category)) {
        refuse(`its category ${JSON.stringify(category)} belongs to the host (${SYSTEM_CATEGORY}/)`);
        continue;
      }
    }
    const injected = detectInjection([], content);
    if (injected.length > 0) {
      refuse(`it is not a fact but ${injected.join(' and ')}`);
      continue;
    }
    const judgement = judgeFactPreservation(sources, content, { excerpt: true, knownDates });
    if (!judgement.ok) {
      refuse(`the user's turns do not say it: ${judgement.reasons.join('; ')}`);
      continue;
    }
    const key = content.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const tags = tagsSchema.safeParse((fact.tags ?? []).map((tag) => tag.trim().toLowerCase()).filter(Boolean));
    accepted.push({ content, category, tags: tags.success ? tags.data : [] });
  }
  return { accepted, refused };
}

/**
 * Whether two texts state the same fact: each says what the other says, in any wording the fact
 * check reads alike (`judgeFactPreservation` both ways). How an extracted fact is told from one
 * memory already holds. Pure.
 */
export function isSameFact(a: string, b: string): boolean {
  if (judgeFactPreservation([a], b).ok && judgeFactPreservation([b], a).ok) return true;
  // "has a peanut allergy" / "is allergic to peanuts": the same terms, one of them derived.
  const [left, right] = [derivationKeys(a), derivationKeys(b)];
  return left.size > 0 && left.size === right.size && [...left].every((key) => right.has(key));
}

/** A text's terms with each word cut to its first five letters (negations, numbers and dates whole). */
function derivationKeys(text: string): Set<string> {
  return new Set(
    analyseText(text).terms.map((term) =>
      term.kind === 'word' || term.kind === 'name' ? term.key.slice(0, 5) : `${term.kind}:${term.key}`,
    ),
  );
}
