import { describe, expect, it } from 'vitest';
import {
  consolidationRepairSchema,
  type NumberedRepair,
  numberRepairs,
  renderRepairRequest,
  replacementsOf,
  spliceRepair,
} from './repair-reply';
import type { CallReview, RepairItem } from './review-reply';

const refused: RepairItem[] = [
  { position: 2, sourceIds: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'], content: 'Tim met a fan in California.', reasons: ['missing name "CA"'] },
  {
    position: 5,
    sourceIds: ['cccccccccccc', 'dddddddddddd', 'eeeeeeeeeeee'],
    content: 'Tim likes tea and drives a van.',
    reasons: ['the host does not find eeeeeeeeeeee similar to cccccccccccc, dddddddddddd'],
  },
];
const line = (id: string) => `[${id}] (general) first=2023-07-16 last=2023-07-16 reinforced=1× : "entry ${id}"`;
const parse = (value: unknown) => consolidationRepairSchema.parse(value);
const repairs: NumberedRepair[] = refused.map((item) => ({ ...item, call: 1, number: item.position }));
const accepted = [['ffffffffffff']];

describe('renderRepairRequest', () => {
  it('names each refused item, what it wrote and why, and shows only the entries it came from', () => {
    const text = renderRepairRequest(repairs, line, new Date('2023-08-01T00:00:00Z'));
    expect(text).toContain('item 2 (from aaaaaaaaaaaa, bbbbbbbbbbbb): "Tim met a fan in California." — refused: missing name "CA"');
    expect(text).toContain('item 5 (from cccccccccccc, dddddddddddd, eeeeeeeeeeee)');
    expect(text).toContain('the host does not find eeeeeeeeeeee similar to cccccccccccc, dddddddddddd');
    for (const id of ['aaaaaaaaaaaa', 'bbbbbbbbbbbb', 'cccccccccccc', 'dddddddddddd', 'eeeeeeeeeeee']) expect(text).toContain(`[${id}]`);
    expect(text).not.toContain('ffffffffffff');
    expect(text).toContain('"item": <n>');
    expect(text).toMatch(/untrusted data/);
  });
});

describe('replacementsOf', () => {
  it('binds each replacement to its item, by number or by its sources, and keeps its ids to that item', () => {
    const { byCall, refusals } = replacementsOf(
      parse({
        toSave: [
          { item: 2, content: 'Tim met a fan in CA.', sourceIds: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'] },
          { content: 'Tim likes tea.', sourceIds: ['cccccccccccc', 'dddddddddddd'] },
          { item: 5, content: 'Tim drives a van.', sourceIds: ['eeeeeeeeeeee', 'aaaaaaaaaaaa'] },
        ],
      }),
      repairs,
      new Set(),
      accepted,
    );
    const { reply, itemOf } = byCall.get(1)!;
    expect(reply.toSave.map((save) => save.sourceIds)).toEqual([
      ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'],
      ['cccccccccccc', 'dddddddddddd'],
      ['eeeeeeeeeeee'],
    ]);
    expect(itemOf).toEqual([2, 5, 5]);
    expect(refusals).toEqual([
      'call 1: repair of toSave item 5: aaaaaaaaaaaa left out: not a source of that item, or already changed by the accepted part of the reply',
    ]);
    expect(reply.toDelete).toEqual([]);
  });

  it('ignores the accepted part sent again, and reports a save that replaces nothing', () => {
    const { byCall, refusals } = replacementsOf(
      parse({
        toDelete: ['ffffffffffff'],
        toSave: [
          { content: 'accepted before', sourceIds: ['ffffffffffff'] },
          { item: 9, content: 'x', sourceIds: ['aaaaaaaaaaaa'] },
          { content: 'y', sourceIds: ['zzzzzzzzzzzz'] },
        ],
      }),
      repairs,
      new Set(),
      accepted,
    );
    expect(byCall.size).toBe(0);
    expect(refusals).toEqual([
      'call 1: repair answer item 2 replaces no refused item (item 9 was not refused); ignored',
      'call 1: repair answer item 3 replaces no refused item; ignored',
    ]);
  });

  it('never reuses an entry the accepted part already changed', () => {
    const { byCall, refusals } = replacementsOf(
      parse({ toSave: [{ item: 2, content: 'x', sourceIds: ['aaaaaaaaaaaa'] }] }),
      repairs,
      new Set(['aaaaaaaaaaaa']),
      accepted,
    );
    expect(byCall.size).toBe(0);
    expect(refusals.at(-1)).toBe("call 1: repair of toSave item 2 refused: none of its sourceIds is one of that item's");
  });
});

describe('one repair request for several calls', () => {
  const ofTwoCalls = numberRepairs([
    { call: 1, repairs: [refused[0]!], saves: 3 },
    { call: 2, repairs: [], saves: 4 },
    { call: 3, repairs: [refused[1]!], saves: 6 },
  ]);

  it('numbers the refused items across the calls, after the saves of the calls before', () => {
    expect(ofTwoCalls.map((item) => [item.call, item.position, item.number])).toEqual([
      [1, 2, 2],
      [3, 5, 12],
    ]);
    const text = renderRepairRequest(ofTwoCalls, line, new Date('2023-08-01T00:00:00Z'));
    expect(text).toContain('item 2 (from aaaaaaaaaaaa, bbbbbbbbbbbb)');
    expect(text).toContain('item 12 (from cccccccccccc, dddddddddddd, eeeeeeeeeeee)');
    expect(text).toContain('the rest of your replies');
  });

  it('gives each call the replacements of its own items, by number or by sources, and names the call in refusals', () => {
    const { byCall, refusals } = replacementsOf(
      parse({
        toSave: [
          { item: 12, content: 'Tim likes tea.', sourceIds: ['cccccccccccc', 'dddddddddddd', 'aaaaaaaaaaaa'] },
          { content: 'Tim met a fan in CA.', sourceIds: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'] },
          { item: 5, content: 'x', sourceIds: ['eeeeeeeeeeee'] },
        ],
      }),
      ofTwoCalls,
      new Set(),
      accepted,
    );
    expect(byCall.get(1)).toEqual({
      reply: {
        toSave: [{ content: 'Tim met a fan in CA.', category: null, tags: null, sourceIds: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'] }],
        toDelete: [],
        toSupersede: [],
      },
      itemOf: [2],
    });
    expect(byCall.get(3)!.reply.toSave.map((save) => save.sourceIds)).toEqual([['cccccccccccc', 'dddddddddddd']]);
    expect(byCall.get(3)!.itemOf).toEqual([5]);
    expect(refusals).toEqual([
      'call 3: repair of toSave item 5: aaaaaaaaaaaa left out: not a source of that item, or already changed by the accepted part of the reply',
      'calls 1, 3: repair answer item 3 replaces no refused item (item 5 was not refused); ignored',
    ]);
  });
});

describe('spliceRepair', () => {
  it('keeps the first reply as accepted, adds the repairs, and retries only what is still refused', () => {
    const review = (over: Partial<CallReview>): CallReview => ({
      saves: [],
      deletions: [],
      supersessions: [],
      refusals: [],
      repairs: [],
      retry: [],
      proposed: 0,
      ...over,
    });
    const save = (position: number, ids: string[]) => ({
      position,
      content: 'c',
      category: 'general',
      tags: [],
      sources: ids.map((id) => ({ id }) as never),
      movedIntoProtected: false,
    });
    const first = review({
      saves: [save(1, ['ffffffffffff'])],
      refusals: ['first'],
      retry: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb', 'cccccccccccc'],
      proposed: 4,
    });
    const second = review({
      saves: [save(1, ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'])],
      refusals: ['second'],
      retry: ['dddddddddddd'],
      proposed: 1,
    });
    const spliced = spliceRepair(first, second, ['asked']);
    expect(spliced.saves.map((s) => s.sources.map((source) => source.id))).toEqual([['ffffffffffff'], ['aaaaaaaaaaaa', 'bbbbbbbbbbbb']]);
    expect(spliced.refusals).toEqual(['first', 'asked', 'second']);
    expect(spliced.retry).toEqual(['cccccccccccc', 'dddddddddddd']);
    expect(spliced.proposed).toBe(4);
  });
});
