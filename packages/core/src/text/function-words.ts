import { STOP_WORDS } from '../search/stop-words';
import { lookupTable } from '../lookup/lookup-table';

/** Words that negate what follows them (`n't` is split off its verb by the tokeniser). */
export const NEGATION_WORDS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  "n't",
  'without',
  'none',
  'nor',
  'neither',
  'cannot',
  'nobody',
  'nothing',
]);

/** Phrases that negate what follows ("TS rather than JS", "Vite instead of Webpack"). */
export const NEGATION_PHRASES: readonly (readonly [string, string])[] = [
  ['rather', 'than'],
  ['instead', 'of'],
];

/** Verbs that say "not <verb>" in one word: "dislikes tea" negates "like" as "doesn't like tea" does. */
export const NEGATIVE_VERBS: ReadonlyMap<string, string> = lookupTable({
  dislike: 'like',
  dislikes: 'like',
  disliked: 'like',
  disliking: 'like',
  hate: 'like',
  hates: 'like',
  hated: 'like',
  hating: 'like',
  detest: 'like',
  detests: 'like',
  detested: 'like',
  loathe: 'like',
  loathes: 'like',
  loathed: 'like',
});

/**
 * Stems of verbs of preference and choice. After one of them and its object, "over" says what is
 * not preferred ("prefers tea over coffee", "picked Stripe over Adyen"), as "rather than" does;
 * "to" does too after "prefer" ("prefers tea to coffee").
 */
export const PREFERENCE_VERBS: ReadonlySet<string> = new Set([
  'prefer',
  'like',
  'love',
  'choos',
  'chose',
  'pick',
  'favour',
  'favor',
  'select',
  'opt',
  'want',
  'enjoy',
]);

/**
 * General nouns that, after a demonstrative, point back at what the text already said ("between
 * those times", "that one"): no fact of their own.
 */
export const DEMONSTRATIVES: ReadonlySet<string> = new Set(['this', 'that', 'these', 'those']);
export const ANAPHORIC_NOUNS: ReadonlySet<string> = new Set([
  'time',
  'times',
  'one',
  'ones',
  'day',
  'days',
  'hour',
  'hours',
  'place',
  'places',
  'way',
  'ways',
]);

/**
 * Common verbs and adverbs that start notes and instructions ("Use Postgres…", "Ask Dana…",
 * "Always…"): at the start of a sentence they are not names, even before a name. Inflected verb
 * forms ("Using", "Decided") are recognised by their ending through the stemmer.
 */
export const SENTENCE_START_WORDS: ReadonlySet<string> = new Set(
  `use ask keep avoid send prefer decide switch move check run call email ping tell remind schedule
  book try make let set add remove stop start go write read review deploy merge ship store host
  migrate choose pick want like love need plan meet work join leave buy drink eat drop cancel
  update upgrade install enable disable open close create build test fix log track report share
  always usually often sometimes never only prefers likes wants needs uses`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Words a negation reaches over to find what it negates ("does not really like tea" negates
 * "like"; "no longer lives" negates "live").
 */
export const NEGATION_SKIP_WORDS: ReadonlySet<string> = new Set([
  'really',
  'very',
  'quite',
  'much',
  'longer',
  'ever',
  'anymore',
  'any',
  'at',
  'all',
  'yet',
  'even',
  'always',
  'usually',
  'often',
  'too',
  'so',
  'more',
  'less',
  'necessarily',
  'currently',
]);

/**
 * The generic subject a model adds or drops when it rewrites a note ("User prefers tea" /
 * "Prefers tea"): no fact, but no grammar either (a list "user tea coffee" is still a list).
 */
export const GENERIC_SUBJECTS: ReadonlySet<string> = new Set(['user', 'users', 'usr']);

/**
 * Words that carry no fact of their own: the search stop words (less the negations, which are
 * facts here), auxiliaries and modal verbs, fillers, and `GENERIC_SUBJECTS`.
 */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  ...[...STOP_WORDS].filter((word) => !NEGATION_WORDS.has(word) && !/n't$/.test(word)),
  ...`is are was were be been being am has have had having do does did done doing will would shall
  should can could may might must ought also still just either whether though although however
  therefore thus whose via per etc eg ie e.g i.e upon onto within across along among around
  towards toward since unless whereas yes us someone something
  thing things stuff currently now every each including include includes`
    .split(/\s+/)
    .filter(Boolean),
  ...GENERIC_SUBJECTS,
]);
