import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildExtractionPrompt, type ExchangeTurn, exchangeWithinBudget } from './fact-extraction-prompt';
import { parseExtractionReply, reviewExtractedFacts } from './review-extracted-facts';
import { type ExtractionMode, MAX_EXTRACTED_FACTS } from './turn-fact-extractor';

// The prompts fact extraction sends for five realistic exchanges, and the replies recorded for
// them (__fixtures__/README.md says how). The prompt files are the prompts as the code builds
// them: a change of the prompt fails here until they are written again
// (REVERIE_WRITE_EXTRACTION_PROMPTS=1) and the replies recorded again for the new prompts.
const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const names = readdirSync(fixtures)
  .filter((file) => file.endsWith('.exchange.json'))
  .map((file) => file.slice(0, -'.exchange.json'.length))
  .sort();

interface Fixture {
  sessionId: string;
  mode: ExtractionMode;
  turns: ExchangeTurn[];
}

function promptFile(name: string): { text: string; exchange: ExchangeTurn[]; maxFacts: number } {
  const fixture = JSON.parse(readFileSync(join(fixtures, `${name}.exchange.json`), 'utf8')) as Fixture;
  const exchange = exchangeWithinBudget(fixture.turns);
  const maxFacts = MAX_EXTRACTED_FACTS[fixture.mode];
  const { system, prompt } = buildExtractionPrompt(exchange, maxFacts);
  return { text: `=== system ===\n${system}\n=== prompt ===\n${prompt}\n`, exchange, maxFacts };
}

/** What the review does with each recorded reply: the facts it keeps, and how many it refuses. */
const EXPECTED: Record<string, { accepted: string[]; refused: number }> = {
  'distances-in-kilometres': { accepted: ['The user prefers distances in kilometres and never thinks in miles.'], refused: 0 },
  'injection-attempt': {
    accepted: ["The user's manager is Ingrid Solberg.", "The user's team ships the billing service every Thursday."],
    refused: 0,
  },
  'peanut-snack': { accepted: ['The user has a peanut allergy.', 'The user is vegetarian.'], refused: 0 },
  'staging-upgrade-session': {
    accepted: [
      "The user's staging database moved from Postgres 14 to Postgres 16.",
      "The user's team deploys with ArgoCD now, not Jenkins.",
      'The user hates long checklists and prefers them kept short.',
    ],
    refused: 0,
  },
  'thanks-only': { accepted: [], refused: 0 },
};

describe('recorded fact extractions', () => {
  it('has five exchanges, each with its prompt and a recorded reply', () => {
    expect(names).toHaveLength(5);
    expect(Object.keys(EXPECTED).sort()).toEqual(names);
  });

  it.each(names)('%s: the prompt file is the prompt the code sends', (name) => {
    const { text } = promptFile(name);
    const file = join(fixtures, `${name}.prompt.txt`);
    if (process.env.REVERIE_WRITE_EXTRACTION_PROMPTS === '1') writeFileSync(file, text);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it.each(names)('%s: the recorded reply passes the review as expected', (name) => {
    const { exchange, maxFacts } = promptFile(name);
    const replyFile = join(fixtures, `${name}.reply.txt`);
    expect(existsSync(replyFile)).toBe(true);
    const review = reviewExtractedFacts(exchange, parseExtractionReply(readFileSync(replyFile, 'utf8'), maxFacts));
    expect(
      { accepted: review.accepted.map((fact) => fact.content), refused: review.refused.length },
      JSON.stringify(review.refused),
    ).toEqual(EXPECTED[name]);
  });
});
