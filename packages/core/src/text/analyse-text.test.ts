import { describe, expect, it } from 'vitest';
import { analyseText, normaliseTerms } from './analyse-text';

/** Two wordings of one fact, which must read the same after normalisation (in any order). */
type Same = [rule: string, a: string, b: string];

const same = (rows: Same[]) =>
  it.each(rows)('%s: %j reads as %j', (_rule, a, b) => {
    expect(normaliseTerms(a).sort()).toEqual(normaliseTerms(b).sort());
    expect(normaliseTerms(a).length).toBeGreaterThan(0);
  });

describe('analyseText: wordings that mean the same read the same', () => {
  describe('case, punctuation, possessives', () => {
    same([
      ['case', 'Alice likes TEA', 'alice likes tea'],
      ['punctuation', 'tea, coffee; milk!', 'tea coffee milk'],
      ['possessive', "Alice's car", 'Alice car'],
      ['plural possessive', "the users' accounts", 'the user accounts'],
      ['curly apostrophe', 'Alice\u2019s car', "Alice's car"],
      ['hyphenation', 'open-source tools', 'open source tools'],
    ]);
  });

  describe('inflection (Porter2 stemmer and irregular forms)', () => {
    same([
      ['plural', 'meetings', 'meeting'],
      ['plural -ies', 'cities', 'city'],
      ['third person', 'prefers', 'prefer'],
      ['past tense', 'moved', 'move'],
      ['progressive', 'running', 'run'],
      ['irregular past', 'went', 'go'],
      ['irregular past', 'bought', 'buy'],
      ['irregular plural', 'children', 'child'],
    ]);
  });

  describe('numbers', () => {
    same([
      ['number word', 'three engineers', '3 engineers'],
      ['compound number word', 'twenty-five', '25'],
      ['scale word', 'two hundred', '200'],
      ['thousands separator', '1,000 requests', '1000 requests'],
      ['multiplier suffix', '5k users', '5000 users'],
      ['million', '2.5 million', '2500000'],
      ['a dozen', 'a dozen eggs', '12 eggs'],
      ['trailing zero', '3.50', '3.5'],
      ['ordinal suffix', '3rd floor', 'third floor'],
      ['first as an ordinal', 'the 1st release', 'the first release'],
      ['twice', 'twice a day', '2 times a day'],
      ['version', 'v3', 'version 3'],
    ]);
    it('reads clock times in every format as H:MM', () => {
      for (const text of ['12:30', 'at 12.30', '12:30 pm', '12.30pm', 'half past twelve']) expect(normaliseTerms(text)).toContain('12:30');
      for (const text of ['15:00', '3pm', '3 p.m.', '3 PM']) expect(normaliseTerms(text)).toEqual(['15:00']);
      expect(normaliseTerms('9:30 a.m.')).toEqual(['9:30']);
      expect(normaliseTerms('quarter to eight')).toEqual(['7:45']);
      expect(normaliseTerms('12.30–13.30 UTC')).toEqual(['12:30', '13:30', 'utc']);
    });
    it('keeps a decimal without time context a number', () => {
      expect(normaliseTerms('costs 12.30 euros')).toEqual(['cost', '12.3', 'euro']);
    });
  });

  describe('dates', () => {
    same([
      ['ISO and month name', '2024-03-05', 'March 5, 2024'],
      ['day month year', '5 Mar 2024', 'March 5 2024'],
      ['ordinal day', 'March 5th, 2024', '2024-03-05'],
      ['day of month', 'the 5th of March 2024', '2024-03-05'],
      ['weekday before a date', 'Tuesday, March 5, 2024', '2024-03-05'],
      ['month and year', 'January 2022', 'Jan 2022'],
      ['month and year ISO', '2022-01', 'January 2022'],
      ['day and month', '14 July', 'July 14th'],
      ['weekday plural', 'on Mondays', 'every Monday'],
      ['weekday short', 'Tue', 'Tuesday'],
      ['lower-case short month with a day', 'nov 2', 'November 2'],
      ['slashes, month first', '03/05/2024', '2024-03-05'],
      ['slashes, day first when over 12', '25/12/2024', '2024-12-25'],
    ]);
    it('reads relative dates as phrases', () => {
      const dates = (text: string) =>
        analyseText(text)
          .terms.filter((term) => term.kind === 'date')
          .map((term) => [term.key, term.relative]);
      expect(dates('last week')).toEqual([['last week', true]]);
      expect(dates('the past month')).toEqual([['last month', true]]);
      expect(dates('two days ago')).toEqual([['2 days ago', true]]);
      expect(dates('in three months')).toEqual([['in 3 months', true]]);
      expect(dates('yesterday')).toEqual([['yesterday', true]]);
    });
    it('reads "may" and "march" as months only with a capital or a day', () => {
      expect(analyseText('we may go').dates).toEqual([]);
      expect(analyseText('in May').dates).toEqual(['--05']);
      expect(analyseText('they march on').dates).toEqual([]);
    });
    it('reads a year alone as a date', () => {
      expect(analyseText('moved in 2019').dates).toEqual(['2019']);
    });
  });

  describe('units and temperature', () => {
    same([
      ['degrees Celsius', '20°C', '20 degrees Celsius'],
      ['spaced unit', '25 MB', '25MB'],
      ['unit word', '25 megabytes', '25 MB'],
      ['percent', '10%', '10 percent'],
      ['currency symbol', '$4,200', '4200 dollars'],
      ['kilometres', '5 km', '5 kilometers'],
      ['minutes', 'req/min', 'requests per minute'],
    ]);
  });

  describe('abbreviations (ABBREVIATIONS)', () => {
    same([
      ['JavaScript', 'JS', 'JavaScript'],
      ['TypeScript', 'written in TS', 'written in TypeScript'],
      ['PostgreSQL', 'Postgres', 'PostgreSQL'],
      ['Kubernetes', 'k8s', 'Kubernetes'],
      ['approx.', 'approx. 300', 'approximately 300'],
      ['open source', 'OSS', 'open source'],
      ['e.g. carries no fact', 'fruit, e.g. apples', 'fruit apples'],
      ['inflected abbreviation', 'two repos', 'two repositories'],
      ['US is the country only in capitals', 'the US', 'United States'],
      ['PR', 'two PRs', 'two pull requests'],
    ]);
    it('reads "pm" after a number as a time, not a product manager', () => {
      expect(normaliseTerms('the PM meets at 3 pm')).toEqual(['product manag', 'meet', '15:00']);
    });
    it('does not read "us" as the country', () => {
      expect(normaliseTerms('call us')).toEqual(['call']);
    });
  });

  describe('negations', () => {
    const negations = (text: string) => analyseText(text).negations;
    it.each([
      ['does not eat meat', ['not eat']],
      ["doesn't eat meat", ['not eat']],
      ['dont call', ['not call']],
      ["can't swim", ['not swim']],
      ['never deploys on Fridays', ['not deploy']],
      ['no pings on weekends', ['not ping']],
      ['coffee without sugar', ['not sugar']],
      ['does not really like tea', ['not like']],
      ['TS rather than JS', ['not javascript']],
      ['Vite instead of Webpack', ['not webpack']],
      ['dislikes long meetings', ['not like']],
      ['is vegetarian', []],
    ])('%j negates %j', (text, expected) => {
      expect(negations(text)).toEqual(expected);
    });
    it('reaches the terms after the negated one, within the sentence', () => {
      const negation = analyseText('does not drink coffee. Tea is fine').terms.find((term) => term.kind === 'negation');
      expect(negation?.scope).toEqual(['drink', 'coffe']);
    });
  });

  describe('names', () => {
    it('takes capitalised words inside a sentence and mixed or upper case words', () => {
      expect(analyseText('The team uses iOS, AWS and GitHub with Alice').names).toEqual(['io', 'aw', 'github', 'alic']);
    });
    it('takes a sentence-initial word as a name when the text capitalises it elsewhere', () => {
      expect(analyseText('Alice leads billing. We asked Alice').names).toEqual(['alic']);
      expect(analyseText('Prefers dark mode').names).toEqual([]);
    });
  });

  it('counts function words apart from fact-bearing terms', () => {
    const analysis = analyseText('the user is in the office');
    expect(analysis.terms.map((term) => term.key)).toEqual(['offic']);
    expect(analysis.tokenCount).toBe(6);
    expect(analysis.functionWordCount).toBe(4);
  });

  it('pairs words joined by "and" or "or"', () => {
    expect(analyseText('allergic to peanuts and shellfish, tea or coffee').pairs).toEqual([
      ['peanut', 'shellfish'],
      ['tea', 'coffe'],
    ]);
  });
});

describe('analyseText: "consider" weighs a plan or holds an opinion', () => {
  const modal = (text: string) => analyseText(text).terms.some((term) => term.kind === 'modality');
  // Sentences in the way LoCoMo's observations use the verb.
  it.each([
    'Mel has a strong connection to art, considering it both a sanctuary and a source of comfort.',
    'Ana considers it a gift to be able to share her journey.',
    'Jon considers her like a partner in this journey.',
    'Jon considers it a must-have in his life.',
    'Gina considers Jon to be the perfect mentor.',
    'John considers stretching and breathing as powerful tools for wellbeing.',
    'John values his family, considering them the best thing ever.',
    'Joanna finds solace in writing, considering it an escape.',
  ])('an opinion, not a plan: %j', (text) => {
    expect(modal(text)).toBe(false);
  });
  it.each([
    'Her kids are considering going camping next month.',
    'Ana is considering a career in counseling.',
    'John is considering it.',
    'John is considering it for next year.',
    'John and his family consider adopting a rescue dog.',
    'Tom considers moving to Oslo.',
    'Tom is considering moving as soon as he can.',
  ])('a plan: %j', (text) => {
    expect(modal(text)).toBe(true);
  });
});
