import { analyseText, normaliseTerms } from '@reverie/core/internal';

/**
 * Stems of words with which an entry states a preference or a standing instruction ("prefers tea",
 * "hates long answers", "always answer in metric", "never book red-eye flights", "please use
 * pnpm"): what may be filed under a protected category such as `user-preferences/`.
 */
const PREFERENCE_STEMS: ReadonlySet<string> = new Set(
  [
    'prefer',
    'like',
    'love',
    'enjoy',
    'want',
    'wish',
    'hate',
    'avoid',
    'favourite',
    'favorite',
    'favour',
    'favor',
    'insist',
    'preference',
  ].flatMap(normaliseTerms),
);

/**
 * Whether `text` states a preference or a standing instruction (SPEC M5, B4): only such an entry
 * may be moved into a protected category, where it is kept from later clean-up and may sit in an
 * always-in-context profile. A fact ("John signed with the Minnesota Wolves") does not. Pure.
 */
export function statesPreference(text: string): boolean {
  if (INSTRUCTION_WORDS.test(text)) return true;
  return analyseText(text).terms.some((term) => PREFERENCE_STEMS.has(term.kind === 'negation' ? term.key.slice(4) : term.key));
}

/** Words of a standing instruction, which the analysis reads as function words or negations. */
const INSTRUCTION_WORDS = /\b(?:always|never|please|rather|instead|should|must|don't|do not)\b/i;
