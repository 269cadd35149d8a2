import { lookupTable } from '../lookup/lookup-table';
import { requireCommonJs } from './require-commonjs';

/** wink-porter2-stemmer ships CommonJS only: required, not imported (see require-commonjs.ts). */
const porter2: typeof import('wink-porter2-stemmer').default = requireCommonJs('wink-porter2-stemmer');

/**
 * Irregular forms a suffix stemmer cannot reach (past tenses, irregular plurals), mapped to the
 * form the stemmer gives their base word. Kept small: common verbs and nouns memories use.
 */
export const IRREGULAR_FORMS: ReadonlyMap<string, string> = lookupTable({
  went: 'go',
  gone: 'go',
  goes: 'go',
  ran: 'run',
  made: 'make',
  took: 'take',
  taken: 'take',
  bought: 'buy',
  got: 'get',
  gotten: 'get',
  began: 'begin',
  begun: 'begin',
  came: 'come',
  found: 'find',
  gave: 'give',
  given: 'give',
  knew: 'know',
  known: 'know',
  met: 'meet',
  paid: 'pay',
  said: 'say',
  saw: 'see',
  seen: 'see',
  sold: 'sell',
  sent: 'send',
  spent: 'spend',
  taught: 'teach',
  thought: 'think',
  told: 'tell',
  wrote: 'write',
  written: 'write',
  chose: 'choose',
  chosen: 'choose',
  broke: 'break',
  broken: 'break',
  built: 'build',
  felt: 'feel',
  kept: 'keep',
  lost: 'lose',
  held: 'hold',
  spoke: 'speak',
  spoken: 'speak',
  drove: 'drive',
  driven: 'drive',
  ate: 'eat',
  eaten: 'eat',
  drank: 'drink',
  drunk: 'drink',
  flew: 'fly',
  flown: 'fly',
  grew: 'grow',
  grown: 'grow',
  forgot: 'forget',
  forgotten: 'forget',
  became: 'become',
  brought: 'bring',
  caught: 'catch',
  won: 'win',
  wore: 'wear',
  worn: 'wear',
  understood: 'understand',
  stood: 'stand',
  sat: 'sit',
  slept: 'sleep',
  swam: 'swim',
  sang: 'sing',
  led: 'lead',
  fed: 'feed',
  children: 'child',
  people: 'person',
  men: 'man',
  women: 'woman',
  feet: 'foot',
  teeth: 'tooth',
  mice: 'mouse',
  geese: 'goose',
});

/**
 * Words longer than this are their own stem: no English word is, and the stemmer's time grows
 * with the square of a word's length (a 16,000-character token took 1.5 s, a value of a million
 * characters would take hours), which a stored value or a model's reply must not be able to cause.
 */
export const MAX_STEMMED_LENGTH = 64;

/**
 * The stem of one lower-case word: irregular forms first, then Porter2 (wink-porter2-stemmer),
 * so "Mondays"/"Monday", "moved"/"moves" and "went"/"go" meet. A word over
 * `MAX_STEMMED_LENGTH` characters is returned as it is (lower-cased).
 */
export function stemWord(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length > MAX_STEMMED_LENGTH) return lower;
  const cached = stems.get(lower);
  if (cached !== undefined) return cached;
  const stem = porter2(IRREGULAR_FORMS.get(lower) ?? lower);
  if (stems.size >= STEM_CACHE_SIZE) stems.clear();
  stems.set(lower, stem);
  return stem;
}

/** Stems remembered (the stemmer is pure and words repeat); the cache starts over when full. */
const STEM_CACHE_SIZE = 20_000;
const stems = new Map<string, string>();
