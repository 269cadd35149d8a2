import { describe, expect, it } from 'vitest';
import type { LocomoConversation } from './locomo-data';
import { conversationOf, entryEvidence, evidenceByContent } from './locomo-memory';

const conversation = (index: number, contents: Array<[string, string[]]>): LocomoConversation => ({
  index,
  sampleId: `x-${index}`,
  speakers: ['Ada', 'Bo'],
  observations: contents.map(([content, evidence]) => ({ content, speaker: 'Ada', at: undefined, session: 1, evidence })),
  questions: [],
  turns: new Map(),
  sessions: [],
});

describe('entryEvidence', () => {
  it('gives an entry its own evidence and that of every observation it replaced', () => {
    const evidence = new Map([
      ['aaaaaaaaaaaa', ['D1:1']],
      ['bbbbbbbbbbbb', ['D2:1', 'D1:1']],
    ]);
    const ancestor = (id: string) => ({
      id,
      relation: 'merged' as const,
      into: 'cccccccccccc',
      at: '2026-01-01T00:00:00.000Z',
      excerpt: '',
      fingerprint: '00000000',
    });
    expect(
      entryEvidence({ id: 'cccccccccccc', lineage: { ancestors: [ancestor('aaaaaaaaaaaa'), ancestor('bbbbbbbbbbbb')] } }, evidence),
    ).toEqual(['D1:1', 'D2:1']);
    expect(entryEvidence({ id: 'aaaaaaaaaaaa' }, evidence)).toEqual(['D1:1']);
    expect(entryEvidence({ id: 'dddddddddddd' }, evidence)).toEqual([]);
  });
});

describe('evidenceByContent and conversationOf', () => {
  const first = conversation(0, [['Ada bought a kayak.', ['D1:1']]]);
  const second = conversation(1, [
    ['Bo went sailing.', ['D2:1']],
    ['Ada bought a kayak.', ['D7:1']],
  ]);

  it('finds the conversation an entry set was made from, and each entry’s evidence by its text', () => {
    const entries = [
      { id: 'aaaaaaaaaaaa', content: 'Bo went sailing.' },
      { id: 'bbbbbbbbbbbb', content: 'Ada bought a kayak.' },
      { id: 'cccccccccccc', content: 'Something else' },
    ];
    expect(
      conversationOf(
        entries.map((entry) => entry.content),
        [first, second],
      ),
    ).toBe(second);
    expect(evidenceByContent(entries, second)).toEqual(
      new Map([
        ['aaaaaaaaaaaa', ['D2:1']],
        ['bbbbbbbbbbbb', ['D7:1']],
      ]),
    );
    expect(conversationOf(['nothing of theirs'], [first, second])).toBeUndefined();
  });
});
