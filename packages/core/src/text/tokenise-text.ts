import { lookupTable } from '../lookup/lookup-table';

/** One piece of a text, before its meaning is normalised. */
export interface RawToken {
  kind: 'word' | 'number' | 'iso-date' | 'year-month' | 'slash-date' | 'time' | 'symbol' | 'comma' | 'break';
  /** The text as written (a word's possessive and contraction endings removed). */
  text: string;
  /** First word of a sentence, a line, or what follows a colon. */
  sentenceStart: boolean;
}

const TOKEN_PATTERN = new RegExp(
  [
    String.raw`(?<url>https?:\/\/\S+|[\w.+-]+@[\w-]+\.[\w.]+)`,
    String.raw`(?<iso>\d{4}-\d{1,2}-\d{1,2})(?!\d)`,
    String.raw`(?<yearMonth>\d{4}-\d{2})(?![\d-])`,
    String.raw`(?<slash>\d{1,2}\/\d{1,2}\/\d{2,4})(?!\d)`,
    String.raw`(?<timeRange>\d{1,2}[.:]\d{2}\s*[-\u2013\u2014]\s*\d{1,2}[.:]\d{2})(?!\d)`,
    String.raw`(?<time>\d{1,2}:\d{2})(?::\d{2})?(?!\d)`,
    String.raw`(?<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?<suffix>(?:st|nd|rd|th|k|K|M|bn)(?![\p{L}\p{N}]))?`,
    String.raw`(?<dotted>(?:\p{L}\.){2,})(?!\p{L})`,
    String.raw`(?<version>[vV]\d+(?:\.\d+)+)(?![\p{L}\p{N}])`,
    String.raw`(?<dotfile>(?<![\p{L}\p{N}.])\.\p{L}[\p{L}\p{N}_-]*)`,
    String.raw`(?<word>\p{L}[\p{L}\p{N}]*(?:'\p{L}+)*'?)`,
    String.raw`(?<symbol>°[CFcf]?|[$€£%~&])`,
    String.raw`(?<comma>,)`,
    String.raw`(?<stop>[.!?;:]+|\n)`,
  ].join('|'),
  'gu',
);

/** Words whose trailing dot is an abbreviation mark, not the end of a sentence. */
const DOTTED_WORDS = new Set(
  `approx etc vs dept mr mrs ms dr st jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues
  wed thu thur thurs fri sat sun inc ltd nr est min max`.split(/\s+/),
);

const CONTRACTED_NOT: ReadonlyMap<string, string> = lookupTable({
  "can't": 'can',
  "won't": 'will',
  "shan't": 'shall',
  "ain't": 'is',
  cant: 'can',
  wont: 'will',
  dont: 'do',
  doesnt: 'does',
  didnt: 'did',
  isnt: 'is',
  arent: 'are',
  wasnt: 'was',
  werent: 'were',
  hasnt: 'has',
  havent: 'have',
  shouldnt: 'should',
  wouldnt: 'would',
  couldnt: 'could',
});

/**
 * Splits a text into words, numbers, dates in digits, symbols, commas and sentence breaks.
 * A version ("v7.2") and a dot file (".env") are one word each.
 * Curly quotes become straight ones; "doesn't" becomes "does" + "n't"; possessive and
 * contraction endings ('s, s', 'm, 're, 've, 'll, 'd) are dropped; hyphenated words split.
 * Linear in the text's length.
 */
export function tokeniseText(input: string): RawToken[] {
  const text = input.normalize('NFKC').replace(/[\u2018\u2019\u02bc`]/g, "'");
  const tokens: RawToken[] = [];
  let sentenceStart = true;
  const push = (kind: RawToken['kind'], value: string) => {
    tokens.push({ kind, text: value, sentenceStart });
    if (kind !== 'comma' && kind !== 'symbol') sentenceStart = false;
  };
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    const groups = match.groups ?? {};
    if (groups.url) push('word', groups.url.replace(/[.,;:!?)]+$/, ''));
    else if (groups.iso) push('iso-date', groups.iso);
    else if (groups.yearMonth) push('year-month', groups.yearMonth);
    else if (groups.slash) push('slash-date', groups.slash);
    else if (groups.timeRange) for (const time of groups.timeRange.split(/\s*[-\u2013\u2014]\s*/)) push('time', time.replace('.', ':'));
    else if (groups.time) push('time', groups.time);
    else if (groups.number) push('number', groups.number + (groups.suffix ?? ''));
    else if (groups.dotted) push('word', groups.dotted.slice(0, -1));
    else if (groups.version) push('word', groups.version);
    else if (groups.dotfile) push('word', groups.dotfile);
    else if (groups.word) pushWord(groups.word, push);
    else if (groups.symbol) push('symbol', groups.symbol.toLowerCase());
    else if (groups.comma) push('comma', ',');
    else if (groups.stop) {
      const previous = tokens.at(-1);
      const abbreviationDot = groups.stop === '.' && previous?.kind === 'word' && DOTTED_WORDS.has(previous.text.toLowerCase());
      if (!abbreviationDot) {
        if (previous?.kind !== 'break') tokens.push({ kind: 'break', text: groups.stop, sentenceStart: false });
        sentenceStart = true;
      }
    }
  }
  return tokens;
}

function pushWord(raw: string, push: (kind: RawToken['kind'], value: string) => void): void {
  const lower = raw.toLowerCase();
  const contracted = CONTRACTED_NOT.get(lower);
  if (contracted) {
    push('word', raw.slice(0, 1) === raw.slice(0, 1).toUpperCase() ? contracted[0]!.toUpperCase() + contracted.slice(1) : contracted);
    push('word', "n't");
    return;
  }
  if (lower.endsWith("n't") && lower.length > 3) {
    push('word', raw.slice(0, -3));
    push('word', "n't");
    return;
  }
  const word = raw.replace(/'(s|m|re|ve|ll|d)?$/i, '');
  if (word) push('word', word);
}
