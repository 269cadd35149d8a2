// Over 400 lines on purpose: the fact check is one rule book (docs/fact-check.md) whose rules are
// read in the order they are applied; the text analysis, date terms and relative dates it uses are
// in files of their own.
import { analyseText, type Term, type TextAnalysis } from './analyse-text';
import { dateGeneralisations } from './date-terms';
import { detectInjection } from './detect-injection';
import { dateInWindow, type DateWindow, relativeDateWindow, weekdayOfDay } from './relative-dates';
import { noWork, type WorkMeter } from './work-meter';

/**
 * Share of what the sources say (distinct content words, names, numbers, dates and negations)
 * a merge must keep, averaged over its sources. Names, numbers, dates and negations must all be
 * kept anyway; content words may be paraphrased, so this is what lets a merge drop some of them.
 */
export const MIN_WORD_COVERAGE = 0.55;
/** The same for a protected entry (`strict`): merged only when nearly every word is kept. */
export const STRICT_MIN_WORD_COVERAGE = 0.75;
/** Least share of any one source a merge must keep (an over-merge drops a source almost whole). */
export const MIN_SOURCE_COVERAGE = 0.4;
/** The same for a protected entry (`strict`). */
export const STRICT_MIN_SOURCE_COVERAGE = 0.5;
/** Largest share of the merge's distinct terms its sources do not say. */
export const MAX_NOVELTY = 0.4;
/** The same for a protected entry (`strict`). */
export const STRICT_MAX_NOVELTY = 0.2;
/**
 * A merge of at least `BAG_MIN_TERMS` terms with a smaller share of function words than this is
 * a list, not a sentence, when its sources are sentences (`BAG_SOURCE_MIN_FUNCTION_SHARE`).
 */
export const BAG_MAX_FUNCTION_SHARE = 0.1;
export const BAG_SOURCE_MIN_FUNCTION_SHARE = 0.2;
export const BAG_MIN_TERMS = 4;
/**
 * Below this share of neighbouring merge terms that some source says in the same order (at most
 * `ORDER_WINDOW` terms apart), and below `BAG_ORDER_MAX_COVERAGE`, a merge is its sources'
 * words shuffled.
 */
export const MIN_ORDER_AGREEMENT = 0.25;
export const ORDER_WINDOW = 3;
export const BAG_ORDER_MAX_COVERAGE = 0.75;

/** In an excerpt, a word whose stem starts with the same this many letters as a source word's is said. */
const DERIVATION_PREFIX = 5;

/** Anchors and relative phrases looked at per source: bounds the work of resolving "last week". */
const MAX_RELATIVE_DATES = 16;
const MAX_ANCHORS = 16;

/**
 * Stems of words that mark an old fact as superseded. They keep a negation of it ("instead of
 * Webpack" / "previously used Webpack") and are not new content of a merge that joins an old
 * fact with a new one.
 */
const SUPERSESSION_MARKERS: ReadonlySet<string> = new Set([
  'previous',
  'previously',
  'formerly',
  'former',
  'until',
  'old',
  'earlier',
  'replac',
  'longer',
  'anymor',
  'now',
  'sinc',
  'instead',
  'origin',
]);

/** Facts by kind, as the texts wrote them (numbers in canonical form). */
export interface FactGroups {
  words: string[];
  names: string[];
  numbers: string[];
  dates: string[];
  negations: string[];
}

export interface FactJudgement {
  ok: boolean;
  /**
   * Share of what the sources say (distinct content words, names, numbers, dates, negations) the
   * merge keeps, averaged over the sources.
   */
  coverage: number;
  /** Share of the merge's distinct terms its sources do not say. */
  novelty: number;
  missing: FactGroups;
  added: FactGroups;
  /** Short sentences naming what is wrong, for a repair request: `missing number "3"`. */
  reasons: string[];
}

export interface JudgeOptions {
  /** A protected entry: the stricter coverage and novelty thresholds. */
  strict?: boolean;
  /**
   * Dates the host knows (the day each source was noted, in any format `analyseText` reads):
   * not novel in the merge, and anchors for a source's "last week" or "yesterday".
   */
  knownDates?: readonly string[];
  /**
   * `merged` states part of what the sources say (a fact taken from a conversation): leaving
   * the rest out is not counted — no coverage, nothing missing — except a negation of what it
   * does say ("I no longer eat meat" is not "eats meat"). What it adds is judged as usual:
   * novelty, new names, numbers, dates, negations and statements, instructions, lists of words.
   */
  excerpt?: boolean;
}

const emptyGroups = (): FactGroups => ({ words: [], names: [], numbers: [], dates: [], negations: [] });

/**
 * "13:30" and "1:30" read alike (a time said without am/pm), and so do "10:00" and a bare hour
 * "10" ("meetings after 10" / "after 10am").
 */
function clockKey(key: string): string | undefined {
  const match = /^(\d{1,2}):(\d{2})$/.exec(key);
  if (match) return `${Number(match[1]) % 12}:${match[2]}`;
  return /^\d{1,2}$/.test(key) && Number(key) <= 24 ? `${Number(key) % 12}:00` : undefined;
}

/** The less precise numbers a decimal or version says: "7.2" says "7", "3.10.1" says "3.10" and "3". */
function numberGeneralisations(key: string): string[] {
  if (!/^\d+(?:\.\d+)+$/.test(key)) return [];
  const parts = key.split('.');
  return parts.slice(1).map((_, index) => parts.slice(0, index + 1).join('.'));
}

function firstTexts(terms: readonly Term[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const term of terms) if (!texts.has(term.key)) texts.set(term.key, term.text);
  return texts;
}

/**
 * Judges whether `merged` says what `sources` say, and little else.
 *
 * Coverage: every name, number, date and negation of the sources is kept (compared after
 * `analyseText`, so other wordings count), a word listed with a kept word ("peanuts and
 * shellfish") is kept, each source keeps at least `MIN_SOURCE_COVERAGE` of its terms and the
 * sources on average `MIN_WORD_COVERAGE`. Novelty: no name, number, date or negation the sources
 * do not say (a date in `knownDates`, or the day a source's "last week" means, is said), no
 * clause made only of new words, and at most `MAX_NOVELTY` of the merge's terms new. Refused
 * outright: instructions addressed to the model (`detectInjection`) and bags of tokens.
 * `strict` (protected entries) uses the STRICT_ thresholds; `excerpt` (a fact taken from a
 * conversation) drops the coverage side but for negations. Pure; linear-ish in the texts.
 */
export function judgeFactPreservation(sources: readonly string[], merged: string, options: JudgeOptions = {}): FactJudgement {
  return judgeWithMeter(sources, merged, options, noWork);
}

/** `judgeFactPreservation`, counting its steps on `meter` (tests check the work grows linearly). */
export function judgeWithMeter(sources: readonly string[], merged: string, options: JudgeOptions, meter: WorkMeter): FactJudgement {
  const strict = options.strict ?? false;
  const excerpt = options.excerpt ?? false;
  const analysedSources = sources.map((source) => analyseText(source, meter));
  const merge = analyseText(merged, meter);
  const sourceTerms = analysedSources.flatMap((analysis) => analysis.terms);
  const sourceText = firstTexts(sourceTerms);
  const mergeText = firstTexts(merge.terms);
  const missing = emptyGroups();
  const added = emptyGroups();
  const union = (pick: (analysis: TextAnalysis) => string[]) => new Set(analysedSources.flatMap(pick));

  const sourceKeys = new Set<string>([...sourceTerms.map((term) => term.key), ...analysedSources.flatMap((a) => a.impliedKeys)]);
  const mergeKeys = new Set<string>([...merge.terms.map((term) => term.key), ...merge.impliedKeys]);
  const sourceClocks = new Set([...union((a) => a.numbers)].map(clockKey).filter((key) => key !== undefined));
  const mergeClocks = new Set(merge.numbers.map(clockKey).filter((key) => key !== undefined));
  const known = (options.knownDates ?? []).flatMap((text) => analyseText(text, meter).dates);
  const resolution = resolveRelativeDates(analysedSources, merge, known, meter);

  // What the sources say that the merge does not.
  // A word any of the texts writes as a name is a name in all of them ("Alice leads…" / "…asked Alice").
  const anyNames = new Set([...union((a) => a.names), ...merge.names]);
  const sourceNames = new Set([...union((a) => a.words)].filter((key) => anyNames.has(key)));
  for (const key of sourceNames) if (!mergeKeys.has(key)) missing.names.push(sourceText.get(key) ?? key);
  const missingNumbers = new Set<string>();
  // A whole number is kept by a more precise one that a source says too ("Redis 7" / "Redis 7.2" when a source says "v7.2").
  const sourceNumbers = union((a) => a.numbers);
  const refinedInMerge = new Set(merge.numbers.filter((key) => sourceNumbers.has(key)).flatMap(numberGeneralisations));
  for (const key of sourceNumbers) {
    const clock = clockKey(key);
    if (!mergeKeys.has(key) && !(clock && mergeClocks.has(clock)) && !refinedInMerge.has(key)) missingNumbers.add(key);
  }
  missing.numbers.push(...missingNumbers);
  // A full date says its weekday too ("Friday" is kept by, and said by, "2024-05-17" when that is a Friday).
  const withWeekday = (keys: readonly string[]) =>
    keys.flatMap((key) => [...dateGeneralisations(key), ...(weekdayOfDay(key) ? [weekdayOfDay(key)!] : [])]);
  const mergeDateCovers = new Set(withWeekday(merge.dates));
  const missingDates = new Set<string>();
  for (const key of union((a) => a.dates)) {
    meter.count += 1;
    if (!mergeDateCovers.has(key) && !resolution.keptSourceDates.has(key)) missingDates.add(key);
  }
  missing.dates.push(...[...missingDates].map((key) => sourceText.get(key) ?? key));

  const sourceNegations = sourceTerms.filter((term) => term.kind === 'negation');
  const mergeNegations = merge.terms.filter((term) => term.kind === 'negation');
  const mergeNegated = new Set(mergeNegations.flatMap((term) => term.scope ?? []));
  const sourceNegated = new Set(sourceNegations.flatMap((term) => term.scope ?? []));
  const supersededSentences = new Set(merge.terms.filter((term) => SUPERSESSION_MARKERS.has(term.key)).map((term) => term.sentence));
  const supersededKeys = new Set(
    merge.terms.filter((term) => supersededSentences.has(term.sentence) && !SUPERSESSION_MARKERS.has(term.key)).map((term) => term.key),
  );
  const missingNegations = new Set<string>();
  for (const negation of sourceNegations) {
    const scope = negation.scope ?? [];
    meter.count += scope.length;
    if (!scope.some((key) => mergeNegated.has(key) || supersededKeys.has(key))) missingNegations.add(negation.text);
  }
  missing.negations.push(...missingNegations);
  // "plans to play console games" is kept by any phrase of the kind over the same words ("intends
  // to play…"), never by "plays console games": a plan, wish or possibility is not a fact.
  // A phrase of the kind in a merge sentence that says one of the words counts too: "…Edinburgh,
  // and John is considering it" keeps "John is considering Edinburgh".
  const modalSentences = new Set(merge.terms.filter((term) => term.kind === 'modality').map((term) => term.sentence));
  const mergeModal = new Set([
    ...merge.terms.filter((term) => term.kind === 'modality').flatMap((term) => term.scope ?? []),
    ...merge.terms.filter((term) => modalSentences.has(term.sentence)).map((term) => term.key),
  ]);
  const factualised = new Set<string>();
  for (const modal of sourceTerms.filter((term) => term.kind === 'modality')) {
    const scope = modal.scope ?? [];
    meter.count += scope.length;
    if (scope.length > 0 && !scope.some((key) => mergeModal.has(key) || !mergeKeys.has(key))) {
      factualised.add(`${modal.text} ${scope.map((key) => sourceText.get(key) ?? key).join(' ')}`);
    }
  }
  for (const key of union((a) => a.words)) if (!mergeKeys.has(key)) missing.words.push(sourceText.get(key) ?? key);

  // A word listed with another ("peanuts and shellfish") goes with it: keeping one keeps both.
  const droppedPartners = new Set<string>();
  for (const [left, right] of analysedSources.flatMap((a) => a.pairs)) {
    if (mergeKeys.has(left) !== mergeKeys.has(right)) droppedPartners.add(mergeKeys.has(left) ? right : left);
  }

  // Content words may be paraphrased: each source keeps part of what it says, all on average more.
  const kept = (term: Term) =>
    term.kind === 'modality'
      ? true
      : term.kind === 'negation'
        ? !missingNegations.has(term.text)
        : term.kind === 'number'
          ? !missingNumbers.has(term.key)
          : term.kind === 'date'
            ? !missingDates.has(term.key)
            : mergeKeys.has(term.key);
  const perSource = analysedSources.map((analysis) => {
    const units = new Map<string, { text: string; kept: boolean }>();
    for (const term of analysis.terms)
      units.set(`${term.kind === 'name' ? 'word' : term.kind}:${term.key}`, { text: term.text, kept: kept(term) });
    const values = [...units.values()];
    return {
      share: values.length === 0 ? 1 : values.filter((unit) => unit.kept).length / values.length,
      lost: values.filter((unit) => !unit.kept).map((unit) => unit.text),
    };
  });
  const coverage = perSource.length === 0 ? 1 : perSource.reduce((sum, source) => sum + source.share, 0) / perSource.length;

  // What the merge says that the sources do not.
  const mergeNames = new Set(merge.names);
  for (const key of mergeNames) if (!sourceKeys.has(key)) added.names.push(mergeText.get(key) ?? key);
  for (const key of merge.numbers) {
    const clock = clockKey(key);
    if (!sourceKeys.has(key) && !(clock && sourceClocks.has(clock))) added.numbers.push(key);
  }
  const saidDates = new Set(withWeekday([...union((a) => a.dates), ...known, ...resolution.derivedMergeDates]));
  // A relative time anchored to a day no source's phrase means ("In the week before 2023-11-16" for
  // "Tim's week has been swamped") says no more than that day, which is judged as any date.
  const anchoredDay = new Map(merge.terms.filter((term) => term.anchored !== undefined).map((term) => [term.key, term.anchored!.day]));
  for (const key of merge.dates) {
    if (saidDates.has(key) || resolution.derivedMergeDates.has(key)) continue;
    const day = anchoredDay.get(key);
    if (day !== undefined && saidDates.has(day)) continue;
    added.dates.push(mergeText.get(key) ?? key);
  }
  const addedNegations = new Set<string>();
  for (const negation of mergeNegations) {
    const scope = negation.scope ?? [];
    meter.count += scope.length;
    if (!scope.some((key) => sourceNegated.has(key))) addedNegations.add(negation.text);
  }
  added.negations.push(...addedNegations);
  // An excerpt rewords what it takes ("my peanut allergy" / "allergic to peanuts"): a word sharing
  // the first DERIVATION_PREFIX letters of its stem with a source word is said.
  const sourceDerivations = excerpt
    ? new Set([...sourceKeys].filter((key) => key.length >= DERIVATION_PREFIX).map((key) => key.slice(0, DERIVATION_PREFIX)))
    : undefined;
  for (const key of merge.words) {
    if (sourceKeys.has(key) || mergeNames.has(key) || SUPERSESSION_MARKERS.has(key)) continue;
    if (sourceDerivations?.has(key.slice(0, DERIVATION_PREFIX))) continue;
    added.words.push(mergeText.get(key) ?? key);
  }
  const statements = newStatements(merge, sourceKeys);
  const mergeUnits = new Set(merge.terms.filter((term) => !SUPERSESSION_MARKERS.has(term.key)).map((term) => term.key)).size;
  const addedUnits = added.words.length + added.names.length + added.numbers.length + added.dates.length + added.negations.length;
  const novelty = mergeUnits === 0 ? 0 : Math.min(1, addedUnits / mergeUnits);

  // Reasons, most telling first.
  const reasons: string[] = [];
  for (const pattern of detectInjection(sources, merged)) reasons.push(`injects ${pattern}`);
  // An excerpt may say its source's words in another order: only the function-word test applies.
  const bag = bagOfTokens(analysedSources, merge, excerpt ? 1 : coverage, meter);
  if (bag) reasons.push(bag);
  if (excerpt) {
    // A negation the excerpt does not keep, of words it mostly says: it states the opposite.
    for (const negation of sourceNegations) {
      const scope = negation.scope ?? [];
      if (missingNegations.has(negation.text) && scope.filter((key) => mergeKeys.has(key)).length * 2 > scope.length) {
        reasons.push(`drops the negation ${JSON.stringify(negation.text)} of what it says`);
      }
    }
  } else {
    for (const name of missing.names) reasons.push(`missing name ${JSON.stringify(name)}`);
    for (const number of missing.numbers) reasons.push(`missing number ${JSON.stringify(number)}`);
    for (const date of missing.dates) reasons.push(`missing date ${JSON.stringify(date)}`);
    for (const negation of missing.negations) reasons.push(`missing negation ${JSON.stringify(negation)}`);
    for (const word of droppedPartners)
      reasons.push(`missing ${JSON.stringify(sourceText.get(word) ?? word)}, listed with a word it keeps`);
  }
  for (const phrase of factualised)
    reasons.push(`states as a fact what a source only plans, wishes or deems possible: ${JSON.stringify(phrase)}`);
  for (const name of added.names) reasons.push(`adds name ${JSON.stringify(name)}`);
  for (const number of added.numbers) reasons.push(`adds number ${JSON.stringify(number)}`);
  for (const date of added.dates) reasons.push(`adds date ${JSON.stringify(date)}`);
  for (const negation of added.negations) reasons.push(`adds negation ${JSON.stringify(negation)}`);
  for (const statement of statements) reasons.push(`adds a statement its sources do not make: ${JSON.stringify(statement)}`);
  // A swapped subject: a source opens a sentence with a word the merge drops ("Alice moved…"),
  // the merge opens one with a word no source says ("Bob moved…"). Either may be a name.
  const droppedOpeners = [...new Set(analysedSources.flatMap((analysis) => analysis.openers))].filter((key) => !mergeKeys.has(key));
  const newOpeners = merge.openers.filter((key) => !sourceKeys.has(key));
  if (!excerpt && droppedOpeners.length > 0 && newOpeners.length > 0) {
    reasons.push(
      `replaces ${JSON.stringify(sourceText.get(droppedOpeners[0]!) ?? droppedOpeners[0])} with ${JSON.stringify(mergeText.get(newOpeners[0]!) ?? newOpeners[0])} at the start of a sentence`,
    );
  }
  const minSourceCoverage = strict ? STRICT_MIN_SOURCE_COVERAGE : MIN_SOURCE_COVERAGE;
  perSource.forEach((source, index) => {
    if (excerpt || source.share >= minSourceCoverage) return;
    reasons.push(
      `keeps ${percent(source.share)} of source ${index + 1} (at least ${percent(minSourceCoverage)} of each needed); missing ${quoteList(source.lost)}`,
    );
  });
  const minCoverage = strict ? STRICT_MIN_WORD_COVERAGE : MIN_WORD_COVERAGE;
  if (!excerpt && coverage < minCoverage) {
    reasons.push(
      `keeps ${percent(coverage)} of what its sources say (at least ${percent(minCoverage)} needed); missing ${quoteList(missing.words)}`,
    );
  }
  const maxNovelty = strict ? STRICT_MAX_NOVELTY : MAX_NOVELTY;
  if (novelty > maxNovelty)
    reasons.push(`${percent(novelty)} of it is new (at most ${percent(maxNovelty)} allowed); adds ${quoteList(added.words)}`);
  return { ok: reasons.length === 0, coverage, novelty, missing, added, reasons };
}

const percent = (share: number) => `${Math.round(share * 100)} %`;
const quoteList = (items: readonly string[]) => items.map((item) => JSON.stringify(item)).join(', ');

interface DateResolution {
  /** Source dates the merge keeps by resolving them: the relative phrase, and the day it was anchored to. */
  keptSourceDates: Set<string>;
  /** Merge dates that a source's relative phrase means. */
  derivedMergeDates: Set<string>;
}

/**
 * Matches each relative date of a source ("last week") against the merge's dates, read from the
 * source's own full dates ("(noted 2024-03-11) …") and the known dates. A merge date inside the
 * window is said by the source; the phrase, and its own anchor, count as kept.
 */
function resolveRelativeDates(
  sources: readonly TextAnalysis[],
  merge: TextAnalysis,
  known: readonly string[],
  meter: WorkMeter,
): DateResolution {
  const keptSourceDates = new Set<string>();
  const derivedMergeDates = new Set<string>();
  const fullDay = /^\d{4}-\d{2}-\d{2}$/;
  const mergeDates = new Set(merge.dates);
  const knownDays = [...new Set(known.filter((date) => fullDay.test(date)))].slice(0, MAX_ANCHORS);
  // "the week before 2023-07-16" in the merge: the days it means, to meet a source's "last week".
  const mergeAnchored = [
    ...new Map(merge.terms.filter((term) => term.anchored !== undefined).map((term) => [term.key, term.anchored!])).entries(),
  ]
    .slice(0, MAX_RELATIVE_DATES)
    .flatMap(([key, { phrase, day }]) => {
      const window = relativeDateWindow(phrase, day);
      return window ? [{ key, window }] : [];
    });
  for (const source of sources) {
    // "in February" said by a source noted in 2026 is "February 2026" (or 2025 when February comes after the day it was noted).
    const months = source.dates.filter((date) => /^--\d{2}$/.test(date));
    const monthAnchors = [...new Set([...source.dates.filter((date) => fullDay.test(date)), ...knownDays])].slice(0, MAX_ANCHORS);
    for (const month of months) {
      for (const anchor of monthAnchors) {
        meter.count += merge.dates.length;
        const year = Number(anchor.slice(0, 4));
        const years = [year, ...(month.slice(2) > anchor.slice(5, 7) ? [year - 1] : [])];
        for (const candidate of years)
          if (mergeDates.has(`${candidate}${month.slice(1)}`)) derivedMergeDates.add(`${candidate}${month.slice(1)}`);
      }
    }
    const relatives = [...new Set(source.terms.filter((term) => term.kind === 'date' && term.relative).map((term) => term.key))].slice(
      0,
      MAX_RELATIVE_DATES,
    );
    if (relatives.length === 0) continue;
    const ownAnchors = source.dates.filter((date) => fullDay.test(date)).slice(0, MAX_ANCHORS);
    const anchors = [...new Set([...ownAnchors, ...knownDays])];
    for (const relative of relatives) {
      if (mergeDates.has(relative)) keptSourceDates.add(relative);
      for (const anchor of anchors) {
        const window = relativeDateWindow(relative, anchor);
        if (!window) continue;
        meter.count += merge.dates.length + mergeAnchored.length;
        const resolved = [
          ...merge.dates.filter((date) => dateInWindow(date, window)),
          ...mergeAnchored.filter((term) => windowsOverlap(term.window, window)).map((term) => term.key),
        ];
        if (resolved.length === 0) continue;
        for (const date of resolved) derivedMergeDates.add(date);
        keptSourceDates.add(relative);
        if (ownAnchors.includes(anchor)) keptSourceDates.add(anchor);
      }
    }
  }
  return { keptSourceDates, derivedMergeDates };
}

/** Whether two windows share a day (of the weekday either names, when one does). */
function windowsOverlap(a: DateWindow, b: DateWindow): boolean {
  const from = a.from > b.from ? a.from : b.from;
  const to = a.to < b.to ? a.to : b.to;
  if (from > to) return false;
  if (a.weekday !== undefined && b.weekday !== undefined && a.weekday !== b.weekday) return false;
  return true;
}

/**
 * Clauses of the merge (see `Term.clause`) with at least two content words, every one of them
 * new: a statement the sources do not make ("and is allergic to eggs").
 */
function newStatements(merge: TextAnalysis, sourceKeys: ReadonlySet<string>): string[] {
  const byClause = new Map<number, Term[]>();
  for (const term of merge.terms) {
    if (term.kind === 'negation' || term.kind === 'modality' || SUPERSESSION_MARKERS.has(term.key)) continue;
    const list = byClause.get(term.clause) ?? [];
    list.push(term);
    byClause.set(term.clause, list);
  }
  const statements: string[] = [];
  for (const clause of byClause.values()) {
    if (clause.length >= 2 && clause.every((term) => !sourceKeys.has(term.key))) statements.push(clause.map((term) => term.text).join(' '));
  }
  return statements;
}

/**
 * A reason when the merge is a bag of tokens, not a sentence: too few function words where the
 * sources have them, or words shuffled out of any source's order while many are dropped.
 */
function bagOfTokens(sources: readonly TextAnalysis[], merge: TextAnalysis, coverage: number, meter: WorkMeter): string | undefined {
  const sourceTokens = sources.reduce((sum, source) => sum + source.tokenCount, 0);
  const sourceFunction = sources.reduce((sum, source) => sum + source.functionWordCount, 0);
  const sourceShare = sourceTokens === 0 ? 0 : sourceFunction / sourceTokens;
  const mergeShare = merge.tokenCount === 0 ? 0 : merge.functionWordCount / merge.tokenCount;
  if (merge.terms.length >= BAG_MIN_TERMS && mergeShare < BAG_MAX_FUNCTION_SHARE && sourceShare >= BAG_SOURCE_MIN_FUNCTION_SHARE) {
    return `is a list of words, not a sentence (${percent(mergeShare)} function words; its sources have ${percent(sourceShare)})`;
  }
  const agreement = orderAgreement(sources, merge, meter);
  if (agreement !== undefined && agreement < MIN_ORDER_AGREEMENT && coverage < BAG_ORDER_MAX_COVERAGE) {
    return `puts its sources' words in an order none of them has (${percent(agreement)} of neighbouring words agree)`;
  }
  return undefined;
}

/**
 * Share of pairs of neighbouring merge terms (both said by a source) that some source says in
 * the same order, at most `ORDER_WINDOW` terms apart. `undefined` with fewer than 3 such pairs.
 */
function orderAgreement(sources: readonly TextAnalysis[], merge: TextAnalysis, meter: WorkMeter): number | undefined {
  const said = new Set<string>();
  const ordered = new Set<string>();
  for (const source of sources) {
    source.terms.forEach((term, index) => {
      said.add(term.key);
      for (let next = index + 1; next <= index + ORDER_WINDOW && next < source.terms.length; next += 1) {
        meter.count += 1;
        ordered.add(`${term.key}\u0000${source.terms[next]!.key}`);
      }
    });
  }
  const kept = merge.terms.filter((term) => term.kind !== 'negation' && said.has(term.key));
  let pairs = 0;
  let agreeing = 0;
  for (let index = 1; index < kept.length; index += 1) {
    const a = kept[index - 1]!;
    const b = kept[index]!;
    if (a.sentence !== b.sentence || a.key === b.key) continue;
    pairs += 1;
    if (ordered.has(`${a.key}\u0000${b.key}`)) agreeing += 1;
  }
  return pairs < 3 ? undefined : agreeing / pairs;
}
