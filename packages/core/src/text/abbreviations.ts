import { stemWord } from './stem-word';

/**
 * One meaning written several ways. Every form (lower case, words separated by one space, the
 * way the tokeniser splits them: "open-source" is "open source", "approx." is "approx") reads as
 * the canonical term. Forms marked `caseSensitive` match only in the case given ("US" the
 * country, not "us"). A canonical of `''` means the phrase carries no fact ("e.g.").
 */
export interface Abbreviation {
  canonical: string;
  forms: readonly string[];
  caseSensitive?: boolean;
}

/** US states by a code that reads as nothing else in a memory, and their names (lower case). */
const US_STATES: ReadonlyArray<readonly [code: string, name: string]> = [
  ['AK', 'alaska'],
  ['AZ', 'arizona'],
  ['CA', 'california'],
  ['FL', 'florida'],
  ['IA', 'iowa'],
  ['KY', 'kentucky'],
  ['MN', 'minnesota'],
  ['NC', 'north carolina'],
  ['NH', 'new hampshire'],
  ['NJ', 'new jersey'],
  ['NM', 'new mexico'],
  ['NV', 'nevada'],
  ['TN', 'tennessee'],
  ['TX', 'texas'],
  ['VT', 'vermont'],
  ['WA', 'washington state'],
  ['WV', 'west virginia'],
  ['WY', 'wyoming'],
];

export const ABBREVIATIONS: readonly Abbreviation[] = [
  { canonical: 'javascript', forms: ['js', 'javascript', 'ecmascript'] },
  { canonical: 'typescript', forms: ['ts', 'typescript'] },
  { canonical: 'python', forms: ['py', 'python'] },
  { canonical: 'postgresql', forms: ['postgres', 'postgresql', 'psql', 'pg'] },
  { canonical: 'kubernetes', forms: ['k8s', 'kubernetes', 'kube'] },
  { canonical: 'open source', forms: ['oss', 'open source', 'opensource'] },
  { canonical: 'approximately', forms: ['approx', 'approximately', 'roughly', 'circa', '~'] },
  {
    canonical: '',
    forms: ['e g', 'eg', 'e.g', 'for example', 'for instance', 'such as', 'i e', 'ie', 'i.e', 'that is', 'etc', 'et cetera'],
  },
  { canonical: '', forms: ['b4', 'pls', 'plz', 'thx'] },
  { canonical: 'request', forms: ['req', 'reqs', 'request'] },
  { canonical: 'database', forms: ['db', 'database'] },
  { canonical: 'pull request', forms: ['pr', 'pull request', 'merge request'] },
  { canonical: 'continuous integration', forms: ['ci', 'continuous integration'] },
  { canonical: 'product manager', forms: ['pm', 'product manager'] },
  { canonical: 'quality assurance', forms: ['qa', 'quality assurance'] },
  { canonical: 'user interface', forms: ['ui', 'user interface'] },
  { canonical: 'operating system', forms: ['os', 'operating system'] },
  { canonical: 'machine learning', forms: ['ml', 'machine learning'] },
  { canonical: 'authentication', forms: ['auth', 'authentication'] },
  { canonical: 'dependency', forms: ['deps', 'dep', 'dependency', 'dependencies'] },
  { canonical: 'package', forms: ['pkg', 'pkgs', 'package'] },
  { canonical: 'performance', forms: ['perf', 'performance'] },
  { canonical: 'maximum', forms: ['max', 'maximum'] },
  { canonical: 'birthday', forms: ['bday', 'birthday'] },
  { canonical: 'senior', forms: ['sr', 'senior'] },
  { canonical: 'junior', forms: ['jr', 'junior'] },
  { canonical: 'week', forms: ['wk', 'wks', 'week'] },
  { canonical: 'year', forms: ['yr', 'yrs', 'year'] },
  { canonical: 'repository', forms: ['repo', 'repository'] },
  { canonical: 'configuration', forms: ['config', 'configuration', 'conf'] },
  { canonical: 'documentation', forms: ['docs', 'doc', 'documentation'] },
  { canonical: 'environment', forms: ['env', 'environment'] },
  { canonical: 'production', forms: ['prod', 'production'] },
  { canonical: 'development', forms: ['dev', 'development'] },
  { canonical: 'application', forms: ['app', 'application'] },
  { canonical: 'message', forms: ['msg', 'msgs', 'message'] },
  { canonical: 'appointment', forms: ['appt', 'appointment'] },
  { canonical: 'department', forms: ['dept', 'department'] },
  { canonical: 'manager', forms: ['mgr', 'manager'] },
  { canonical: 'information', forms: ['info', 'information'] },
  { canonical: 'versus', forms: ['vs', 'versus'] },
  { canonical: 'as soon as possible', forms: ['asap', 'as soon as possible'] },
  { canonical: 'email', forms: ['email', 'e mail'] },
  { canonical: 'united states', forms: ['US', 'USA', 'U.S', 'U.S.A'], caseSensitive: true },
  { canonical: 'united states', forms: ['united states', 'united states of america'] },
  { canonical: 'united kingdom', forms: ['uk', 'united kingdom', 'great britain'] },
  { canonical: 'new york', forms: ['nyc', 'new york', 'new york city'] },
  { canonical: 'new york', forms: ['NY'], caseSensitive: true },
  { canonical: 'european union', forms: ['eu', 'european union'] },
  { canonical: 'united arab emirates', forms: ['uae', 'united arab emirates'] },
  { canonical: 'los angeles', forms: ['LA', 'L.A'], caseSensitive: true },
  { canonical: 'los angeles', forms: ['los angeles'] },
  { canonical: 'san francisco', forms: ['SF'], caseSensitive: true },
  { canonical: 'san francisco', forms: ['san francisco'] },
  // US states whose two-letter code is not also a common word or abbreviation ("OR", "IN", "ID", "MD", "GA"…).
  ...US_STATES.map(([code, name]) => ({ canonical: name, forms: [code], caseSensitive: true })),
  ...US_STATES.map(([, name]) => ({ canonical: name, forms: [name] })),
  // Titles.
  { canonical: 'doctor', forms: ['dr', 'doctor'] },
  { canonical: 'professor', forms: ['prof', 'professor'] },
  { canonical: 'mister', forms: ['mr', 'mister'] },
  { canonical: 'mount', forms: ['mt', 'mount'] },
  // Units (the number is a separate fact; "20°C", "20 C" and "20 degrees Celsius" agree).
  { canonical: 'celsius', forms: ['celsius', '°c', 'degrees celsius', 'degree celsius', 'centigrade'] },
  { canonical: 'fahrenheit', forms: ['fahrenheit', '°f', 'degrees fahrenheit', 'degree fahrenheit'] },
  { canonical: 'percent', forms: ['%', 'percent', 'per cent', 'pct'] },
  { canonical: 'kilometre', forms: ['km', 'kms', 'kilometre', 'kilometres', 'kilometer', 'kilometers'] },
  { canonical: 'metre', forms: ['metre', 'metres', 'meter', 'meters'] },
  { canonical: 'mile', forms: ['mi', 'mile', 'miles'] },
  { canonical: 'kilogram', forms: ['kg', 'kgs', 'kilo', 'kilos', 'kilogram', 'kilograms'] },
  { canonical: 'pound', forms: ['lb', 'lbs', 'pound', 'pounds', 'gbp', '£'] },
  { canonical: 'hour', forms: ['h', 'hr', 'hrs', 'hour', 'hours'] },
  { canonical: 'minute', forms: ['min', 'mins', 'minute', 'minutes'] },
  { canonical: 'second', forms: ['sec', 'secs', 'seconds'] },
  { canonical: 'millisecond', forms: ['ms', 'millisecond', 'milliseconds'] },
  { canonical: 'megabyte', forms: ['mb', 'megabyte', 'megabytes'] },
  { canonical: 'gigabyte', forms: ['gb', 'gigabyte', 'gigabytes'] },
  { canonical: 'terabyte', forms: ['tb', 'terabyte', 'terabytes'] },
  { canonical: 'dollar', forms: ['$', 'usd', 'dollar', 'dollars', 'bucks'] },
  { canonical: 'euro', forms: ['€', 'eur', 'euro', 'euros'] },
];

/** Longest form, in tokens, that the table holds. */
export const LONGEST_ABBREVIATION = Math.max(...ABBREVIATIONS.flatMap((entry) => entry.forms.map((form) => form.split(' ').length)));

const stemPhrase = (phrase: string) => phrase.toLowerCase().split(' ').map(stemWord).join(' ');

interface AbbreviationTables {
  byForm: Map<string, string>;
  byExactForm: Map<string, string>;
  /** First words (lower case, and stemmed) of every form: most words start none, and are skipped at once. */
  firstWords: Set<string>;
}

let built: AbbreviationTables | undefined;

/** The lookup tables, stemmed at the first lookup rather than at import (docs/architecture.md, "What loads lazily"). */
function tables(): AbbreviationTables {
  if (built) return built;
  const next: AbbreviationTables = { byForm: new Map(), byExactForm: new Map(), firstWords: new Set() };
  for (const entry of ABBREVIATIONS) {
    const canonical = entry.canonical === '' ? '' : stemPhrase(entry.canonical);
    for (const form of entry.forms) {
      const first = form.split(' ')[0]!.toLowerCase();
      next.firstWords.add(first);
      next.firstWords.add(stemWord(first));
      if (entry.caseSensitive) next.byExactForm.set(form, canonical);
      else next.byForm.set(stemPhrase(form), canonical);
    }
  }
  built = next;
  return built;
}

/** Whether some form may start with this word (a cheap test before `lookupAbbreviation`). */
export function mayStartAbbreviation(word: string): boolean {
  const { firstWords } = tables();
  const lower = word.toLowerCase();
  return firstWords.has(lower) || firstWords.has(stemWord(lower)) || (lower.endsWith('s') && firstWords.has(lower.slice(0, -1)));
}

/**
 * The canonical key (stemmed, so it meets the same word written out) of a phrase of tokens, or
 * `undefined` when the table does not hold it. Inflected forms match ("repos", "configs").
 */
export function lookupAbbreviation(words: readonly string[]): string | undefined {
  const { byForm, byExactForm } = tables();
  const phrase = words.join(' ');
  const found = byExactForm.get(phrase) ?? byForm.get(stemPhrase(phrase));
  if (found !== undefined || !/[^s]s$/i.test(phrase)) return found;
  // The plural of a short form the stemmer leaves alone: "PRs", "DBs".
  return byExactForm.get(phrase.slice(0, -1)) ?? byForm.get(stemPhrase(phrase.slice(0, -1)));
}
