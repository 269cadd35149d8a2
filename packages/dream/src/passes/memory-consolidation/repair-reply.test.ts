import { describe, expect, it } from 'vitest';
import { consolidationRepairSchema, renderRepairRequest, replacementsOf, spliceRepair } from './repair-reply';
import type { CallReview, RepairItem } from './review-reply';

const repairs: RepairItem[] = [
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
const context = { call: 1, accepted: [['ffffffffffff']] };

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
    const { reply, itemOf, refusals } = replacementsOf(
      parse({
        toSave: [
          { item: 2, content: 'Tim met a fan in CA.', sourceIds: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'] },
          { content: 'Tim likes tea.', sourceIds: ['cccccccccccc', 'dddddddddddd'] },
          { item: 5, content: 'Tim drives a van.', sourceIds: ['eeeeeeeeeeee', 'aaaaaaaaaaaa'] },
        ],
      }),
      repairs,
      new Set(),
      context,
    );
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
    const { reply, refusals } = replacementsOf(
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
      context,
    );
    expect(reply.toSave).toEqual([]);
    expect(refusals).toEqual([
      'call 1: repair answer item 2 replaces no refused item (item 9 was not refused); ignored',
      'call 1: repair answer item 3 replaces no refused item; ignored',
    ]);
  });

  it('never reuses an entry the accepted part already changed', () => {
    const { reply, refusals } = replacementsOf(
      parse({ toSave: [{ item: 2, content: 'x', sourceIds: ['aaaaaaaaaaaa'] }] }),
      repairs,
      new Set(['aaaaaaaaaaaa']),
      context,
    );
    expect(reply.toSave).toEqual([]);
    expect(refusals.at(-1)).toBe("call 1: repair of toSave item 2 refused: none of its sourceIds is one of that item's");
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
