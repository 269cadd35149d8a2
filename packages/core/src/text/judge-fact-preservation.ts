import { analyseText, type Term, type TextAnalysis } from './analyse-text';
import { dateCovers } from './date-terms';
import { detectInjection } from './detect-injection';
import { dateInWindow, relativeDateWindow } from './relative-dates';

/** Share of the sources' content words a merge must keep (content words may be paraphrased). */
export const MIN_WORD_COVERAGE = 0.6;
/** The same for a protected entry (`strict`): merged only when nearly every word is kept. */
export const STRICT_MIN_WORD_COVERAGE = 0.75;
/** Largest share of the merge's terms its sources do not say. */
export const MAX_NOVELTY = 0.34;
/** The same for a protected entry (`strict`). */
export const STRICT_MAX_NOVELTY = 0.2;
/** A merge of at least `BAG_MIN_TERMS` terms with fewer function words than this share is a list, not a sentence… */
export const BAG_MAX_FUNCTION_SHARE = 0.1;
/** …when its sources are sentences (at least this share of function words). */
export const BAG_SOURCE_MIN_FUNCTION_SHARE = 0.2;
export const BAG_MIN_TERMS = 4;
/**
 * Below this share of adjacent merge terms that stand in the same order (within
 * `ORDER_WINDOW` terms) in some source, and below `BAG_ORDER_MAX_COVERAGE` of word coverage,
 * a merge is the sources' words shuffled.
 */
export const MIN_ORDER_AGREEMENT = 0.25;
export const ORDER_WINDOW = 3;
export const BAG_ORDER_MAX_COVERAGE = 0.75;

/** Words that mark an old fact as superseded; they keep a negation of it ("instead of Webpack" / "previously used Webpack"). */
const SUPERSESSION_MARKERS = new Set(['previous', 'previously', 'formerly', 'former', 'until', 'old', 'earlier', 'replac', 'longer', 'anymor']);

export interface FactGroups {
  words: string[];
  names: string[];
  numbers: string[];
  dates: string[];
  negations: string[];
}

export interface FactJudgement {
  ok: boolean;
  /** Share of the sources' content words the merge keeps. */
  coverage: number;
  /** Share of the merge's terms (words, names, numbers, dates, negations) its sources do not say. */
  novelty: number;
  missing: FactGroups;
  added: FactGroups;
  /** Short sentences naming what is wrong, for a repair request: `missing number "3"`. */
  reasons: string[];
}

export interface JudgeOptions {
  /** A protected entry: stricter coverage and novelty thresholds. */
  strict?: boolean;
  /** Dates the host knows (the day each source was noted): not novel, and anchors for "last week". */
  knownDates?: readonly string[];
}

const emptyGroups = (): FactGroups => ({ words: [], names: [], numbers: [], dates: [], negations: [] });

/** Two clock times that differ only by am/pm ("1:30" and "13:30"). */
function sameClockTime(a: string, b: string): boolean {
  const pa = /^(\d{1,2}):(\d{2})$/.exec(a);
  const pb = /^(\d{1,2}):(\d{2})$/.exec(b);
  return !!pa && !!pb && pa[2] === pb[2] && Number(pa[1]) % 12 === Number(pb[1]) % 12;
}

function firstText(terms: readonly Term[], key: string): string {
  return terms.find((term) => term.key === key)?.text ?? key;
}

/**
 * Judges whether `merged` says what `sources` say, and little else. Coverage: every name,
 * number, date and negation of the sources is kept (normalised by `analyseText`, so other
 * wordings count), and at least `MIN_WORD_COVERAGE` of their content words. Novelty: no name,
 * number, date or negation the sources do not say (dates in `knownDates`, or a date a source's
 * "last week" means, are said), and at most `MAX_NOVELTY` of the merge's terms new. Refused
 * outright: instructions addressed to the model (`detectInjection`) and bags of tokens. Pure;
 * linear-ish in the length of the texts.
 */
export function judgeFactPreservation(sources: readonly string[], merged: string, options: JudgeOptions = {}): FactJudgement {
  const strict = options.strict ?? false;
  const analysedSources = sources.map(analyseText);
  const merge = analyseText(merged);
  const sourceTerms = analysedSources.flatMap((analysis) => analysis.terms);
  const reasons: string[] = [];
  const missing = emptyGroups();
  const added = emptyGroups();

  const sourceKeys = new Set<string>([...sourceTerms.map((term) => term.key), ...analysedSources.flatMap((a) => a.impliedNumbers)]);
  const mergeKeys = new Set<string>([...merge.terms.map((term) => term.key), ...merge.impliedNumbers]);
  const mergeNumbers = merge.numbers;

  // Dates: anchors are the known dates and the full dates of sources that say a relative one.
  const known = (options.knownDates ?? []).flatMap((text) => analyseText(text).dates);
  const dateResolution = resolveRelativeDates(analysedSources, merge, known);

  const union = (pick: (analysis: TextAnalysis) => string[]) => [...new Set(analysedSources.flatMap(pick))];

  for (const key of union((a) => a.names)) if (!mergeKeys.has(key)) missing.names.push(firstText(sourceTerms, key));
  for (const key of union((a) => a.numbers)) {
    if (!mergeKeys.has(key) && !mergeNumbers.some((number) => sameClockTime(number, key))) missing.numbers.push(key);
  }
  for (const key of union((a) => a.dates)) {
    const kept = merge.dates.some((date) => dateCovers(date, key)) || dateResolution.keptSourceDates.has(key);
    if (!kept) missing.dates.push(firstText(sourceTerms, key));
  }
  const sourceNegations = sourceTerms.filter((term) => term.kind === 'negation');
  const mergeNegations = merge.terms.filter((term) => term.kind === 'negation');
  const overlaps = (a: Term, b: Term) => (a.scope ?? []).some((key) => (b.scope ?? []).includes(key));
  const superseded = (negation: Term) =>
    merge.terms.some(
      (term, index) =>
        SUPERSESSION_MARKERS.has(term.key) &&
        merge.terms.some((other, otherIndex) => otherIndex !== index && other.sentence === term.sentence && (negation.scope ?? []).includes(other.key)),
    );
  for (const negation of sourceNegations) {
    if (mergeNegations.some((other) => overlaps(negation, other)) || superseded(negation)) continue;
    if (!missing.negations.includes(negation.text)) missing.negations.push(negation.text);
  }

  // Content words, per source: a merge of paraphrases keeps each source's words in part.
  const sourceWordKeys = union((a) => a.words);
  const keptWords = sourceWordKeys.filter((key) => mergeKeys.has(key));
  for (const key of sourceWordKeys) if (!mergeKeys.has(key)) missing.words.push(firstText(sourceTerms, key));
  const coverage = sourceWordKeys.length === 0 ? 1 : keptWords.length / sourceWordKeys.length;

  // What the merge adds.
  for (const key of merge.names) if (!sourceKeys.has(key)) added.names.push(firstText(merge.terms, key));
  for (const key of merge.numbers) {
    if (!sourceKeys.has(key) && !sourceTerms.some((term) => term.kind === 'number' && sameClockTime(term.key, key))) added.numbers.push(key);
  }
  const sourceDates = union((a) => a.dates);
  for (const key of merge.dates) {
    const said = sourceDates.some((date) => dateCovers(date, key)) || known.some((date) => dateCovers(date, key)) || dateResolution.derivedMergeDates.has(key);
    if (!said) added.dates.push(firstText(merge.terms, key));
  }
  for (const negation of mergeNegations) {
    if (!sourceNegations.some((other) => overlaps(negation, other)) && !added.negations.includes(negation.text)) added.negations.push(negation.text);
  }
  for (const key of merge.words) if (!sourceKeys.has(key) && !merge.names.includes(key)) added.words.push(firstText(merge.terms, key));

  const mergeUnits = new Set(merge.terms.map((term) => term.key)).size;
  const addedUnits = added.words.length + added.names.length + added.numbers.length + added.dates.length + added.negations.length;
  const novelty = mergeUnits === 0 ? 0 : addedUnits / mergeUnits;

  // Refusals, most telling first.
  for (const pattern of detectInjection(sources, merged)) reasons.push(`injects ${pattern}`);
  const bag = bagOfTokens(analysedSources, merge, coverage);
  if (bag) reasons.push(bag);
  for (const name of missing.names) reasons.push(`missing name ${JSON.stringify(name)}`);
  for (const number of missing.numbers) reasons.push(`missing number ${JSON.stringify(number)}`);
  for (const date of missing.dates) reasons.push(`missing date ${JSON.stringify(date)}`);
  for (const negation of missing.negations) reasons.push(`missing negation ${JSON.stringify(negation)}`);
  for (const name of added.names) reasons.push(`adds name ${JSON.stringify(name)}`);
  for (const number of added.numbers) reasons.push(`adds number ${JSON.stringify(number)}`);
  for (const date of added.dates) reasons.push(`adds date ${JSON.stringify(date)}`);
  for (const negation of added.negations) reasons.push(`adds negation ${JSON.stringify(negation)}`);
  const minCoverage = strict ? STRICT_MIN_WORD_COVERAGE : MIN_WORD_COVERAGE;
  if (coverage < minCoverage) {
    reasons.push(`keeps ${percent(coverage)} of the sources' words (at least ${percent(minCoverage)} needed); missing ${missing.words.map((word) => JSON.stringify(word)).join(', ')}`);
  }
  const maxNovelty = strict ? STRICT_MAX_NOVELTY : MAX_NOVELTY;
  if (novelty > maxNovelty) {
    reasons.push(`${percent(novelty)} of it is new (at most ${percent(maxNovelty)} allowed); adds ${added.words.map((word) => JSON.stringify(word)).join(', ')}`);
  }
  return { ok: reasons.length === 0, coverage, novelty, missing, added, reasons };
}

const percent = (share: number) => `${Math.round(share * 100)} %`;

interface DateResolution {
  /** Source dates the merge keeps by resolving them: the relative phrase, and the day it was anchored to. */
  keptSourceDates: Set<string>;
  /** Merge dates that a source's relative phrase means. */
  derivedMergeDates: Set<string>;
}

function resolveRelativeDates(sources: readonly TextAnalysis[], merge: TextAnalysis, known: readonly string[]): DateResolution {
  const keptSourceDates = new Set<string>();
  const derivedMergeDates = new Set<string>();
  const fullDay = /^\d{4}-\d{2}-\d{2}$/;
  for (const source of sources) {
    const relatives = source.terms.filter((term) => term.kind === 'date' && term.relative);
    if (relatives.length === 0) continue;
    const ownAnchors = source.dates.filter((date) => fullDay.test(date));
    const anchors = [...new Set([...ownAnchors, ...known.filter((date) => fullDay.test(date))])];
    for (const relative of relatives) {
      if (merge.dates.includes(relative.key)) keptSourceDates.add(relative.key);
      for (const anchor of anchors) {
        const window = relativeDateWindow(relative.key, anchor);
        if (!window) continue;
        const resolved = merge.dates.filter((date) => dateInWindow(date, window));
        if (resolved.length === 0) continue;
        for (const date of resolved) derivedMergeDates.add(date);
        keptSourceDates.add(relative.key);
        if (ownAnchors.includes(anchor)) keptSourceDates.add(anchor);
      }
    }
  }
  return { keptSourceDates, derivedMergeDates };
}

/**
 * A reason when the merge is a bag of tokens, not a sentence: too few function words where the
 * sources have them, or words shuffled out of any source's order while many are dropped.
 */
function bagOfTokens(sources: readonly TextAnalysis[], merge: TextAnalysis, coverage: number): string | undefined {
  const sourceTokens = sources.reduce((sum, source) => sum + source.tokenCount, 0);
  const sourceFunction = sources.reduce((sum, source) => sum + source.functionWordCount, 0);
  const sourceShare = sourceTokens === 0 ? 0 : sourceFunction / sourceTokens;
  const mergeShare = merge.tokenCount === 0 ? 0 : merge.functionWordCount / merge.tokenCount;
  if (merge.terms.length >= BAG_MIN_TERMS && mergeShare < BAG_MAX_FUNCTION_SHARE && sourceShare >= BAG_SOURCE_MIN_FUNCTION_SHARE) {
    return `is a list of words, not a sentence (${percent(mergeShare)} function words; its sources have ${percent(sourceShare)})`;
  }
  const agreement = orderAgreement(sources, merge);
  if (agreement !== undefined && agreement < MIN_ORDER_AGREEMENT && coverage < BAG_ORDER_MAX_COVERAGE) {
    return `puts the sources' words in an order none of them has (${percent(agreement)} of word pairs agree)`;
  }
  return undefined;
}

/**
 * Share of pairs of neighbouring merge terms (both said by a source) that some source says in
 * the same order, at most `ORDER_WINDOW` terms apart. `undefined` with fewer than 3 such pairs.
 */
export function orderAgreement(sources: readonly TextAnalysis[], merge: TextAnalysis): number | undefined {
  const positions = sources.map((source) => {
    const byKey = new Map<string, number[]>();
    source.terms.forEach((term, index) => {
      const list = byKey.get(term.key) ?? [];
      if (list.length < 8) list.push(index);
      byKey.set(term.key, list);
    });
    return byKey;
  });
  const said = merge.terms.filter((term) => term.kind !== 'negation' && positions.some((byKey) => byKey.has(term.key)));
  let pairs = 0;
  let agreeing = 0;
  for (let index = 1; index < said.length; index += 1) {
    const a = said[index - 1]!;
    const b = said[index]!;
    if (a.sentence !== b.sentence || a.key === b.key) continue;
    pairs += 1;
    const agrees = positions.some((byKey) => {
      const first = byKey.get(a.key);
      const second = byKey.get(b.key);
      return !!first && !!second && first.some((i) => second.some((j) => j > i && j - i <= ORDER_WINDOW));
    });
    if (agrees) agreeing += 1;
  }
  return pairs < 3 ? undefined : agreeing / pairs;
}
