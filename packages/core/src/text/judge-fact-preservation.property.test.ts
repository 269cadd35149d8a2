import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeFactPreservation, judgeWithMeter } from './judge-fact-preservation';
import type { WorkMeter } from './work-meter';

// Sentences built from pieces a memory is made of: function words, content words, names,
// numbers, dates, times, negations, abbreviations, relative dates, punctuation.
const FUNCTION = ['the', 'a', 'is', 'in', 'on', 'at', 'for', 'with', 'to', 'of', 'and', 'or', 'but', 'has', 'was'];
const CONTENT_A = [
  'tea',
  'coffee',
  'meeting',
  'deploy',
  'prefers',
  'editor',
  'garden',
  'lives',
  'works',
  'team',
  'billing',
  'review',
  'flight',
  'dog',
  'walks',
  'backup',
];
const CONTENT_B = [
  'quartz',
  'nebula',
  'violin',
  'harbour',
  'glacier',
  'saffron',
  'lantern',
  'orchard',
  'tundra',
  'falcon',
  'mosaic',
  'pebble',
  'canyon',
  'walrus',
];
const FACTS = [
  'Alice',
  'Berlin',
  'PostgreSQL',
  'JS',
  '3',
  'three',
  '1,000',
  '12:30',
  '3pm',
  '2024-03-05',
  'March 5, 2024',
  'Mondays',
  'not',
  "doesn't",
  'never',
  'without',
  'last week',
  'approx.',
  '20°C',
];
const PUNCTUATION = [',', ';', '.', ':'];

const sentence = (content: readonly string[]) =>
  fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...FUNCTION) },
        { weight: 4, arbitrary: fc.constantFrom(...content) },
        { weight: 2, arbitrary: fc.constantFrom(...FACTS) },
        { weight: 1, arbitrary: fc.constantFrom(...PUNCTUATION) },
      ),
      { minLength: 3, maxLength: 16 },
    )
    .map((words) => words.join(' ').replace(/ ([,;.:])/g, '$1'));

describe('judgeFactPreservation properties', () => {
  it('accepts a merge that is the concatenation of its sources', () => {
    fc.assert(
      fc.property(fc.array(sentence(CONTENT_A), { minLength: 1, maxLength: 5 }), (sources) => {
        const judgement = judgeFactPreservation(sources, sources.join('. '));
        expect(judgement.reasons).toEqual([]);
        expect(judgement.coverage).toBe(1);
        expect(judgement.novelty).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a merge of random words its sources do not say', () => {
    const content = fc.array(fc.constantFrom(...CONTENT_A), { minLength: 2, maxLength: 6 });
    const sourceArbitrary = fc.tuple(sentence(CONTENT_A), content).map(([text, words]) => `${text} ${words.join(' ')}`);
    fc.assert(
      fc.property(
        fc.array(sourceArbitrary, { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom(...CONTENT_B, ...FUNCTION), { minLength: 2, maxLength: 20 }),
        (sources, words) => {
          fc.pre(words.some((word) => CONTENT_B.includes(word)));
          const judgement = judgeFactPreservation(sources, words.join(' '));
          expect(judgement.ok).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('does work that grows linearly with the input', () => {
    const piece = fc.constantFrom(
      ...FUNCTION,
      ...CONTENT_A,
      ...CONTENT_B,
      ...FACTS,
      ...PUNCTUATION,
      'yesterday',
      'two days ago',
      'and',
      'Bob Singh',
      'you',
    );
    const work = (sources: string[], merged: string) => {
      const meter: WorkMeter = { count: 0 };
      judgeWithMeter(sources, merged, { knownDates: ['2024-03-11'] }, meter);
      return meter.count;
    };
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 40, maxLength: 80 }),
        fc.array(piece, { minLength: 40, maxLength: 80 }),
        (sourcePieces, mergePieces) => {
          const scaled = (pieces: string[], times: number) =>
            Array.from({ length: times }, (_, copy) => pieces.map((p) => (CONTENT_B.includes(p) ? `${p}${copy}` : p)).join(' ')).join(' ');
          // From 2 to 16 copies (past the bounded lists' caps): linear work grows about 8 times; quadratic, 64.
          const small = work([scaled(sourcePieces, 2), scaled(sourcePieces, 2)], scaled(mergePieces, 2));
          const large = work([scaled(sourcePieces, 16), scaled(sourcePieces, 16)], scaled(mergePieces, 16));
          expect(large).toBeLessThanOrEqual(small * 8 * 1.5);
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);
});
