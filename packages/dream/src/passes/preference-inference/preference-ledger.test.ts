import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '@reverie/core';
import { PreferenceLedger } from './preference-ledger';
import { type PreferenceReply, preferenceReplySchema } from './preference-reply';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const CATEGORY = 'user-preferences/inferred';

const onRecord: MemoryEntry = {
  id: 'abcdefabcdef',
  content: 'Prefers answers without emojis [durable]',
  category: 'user-preferences',
  tags: ['style'],
  createdAt: '2026-05-01T10:00:00.000Z',
  updatedAt: '2026-05-02T10:00:00.000Z',
  lastSeenAt: '2026-05-01T10:00:00.000Z',
  reinforcementCount: 2,
  importance: 0.7,
  metadata: { source: 'explicit' },
};

function ledger(userSeqs: number[] = [1, 3, 5, 7], preferences: MemoryEntry[] = []): PreferenceLedger {
  return new PreferenceLedger(preferences, { category: CATEGORY, now: NOW, userSeqs: new Set(userSeqs) });
}

function reply(preferences: unknown[]): PreferenceReply {
  return preferenceReplySchema.parse({ preferences });
}

function saved(l: PreferenceLedger): MemoryEntry[] {
  return l.operations().map((operation) => {
    if (operation.op !== 'memory.save') throw new Error(`unexpected ${operation.op}`);
    return operation.entry;
  });
}

describe('PreferenceLedger (SPEC D11)', () => {
  it('needs 1 user turn for a strong preference, 2 for a mild one, 3 for a casual one', () => {
    const l = ledger();
    l.review(
      reply([
        { content: 'Hates emojis', strength: 'strong', evidence: [1] },
        { content: 'Wants shorter answers', strength: 'mild', evidence: [1] },
        { content: 'Wants bullet lists', strength: 'mild', evidence: [1, 3] },
        { content: 'Works in Python', strength: 'casual', evidence: [1, 3] },
        { content: 'Uses Neovim', strength: 'casual', evidence: [1, 3, 5] },
      ]),
    );
    expect(saved(l).map((entry) => entry.content)).toEqual(['Hates emojis', 'Wants bullet lists', 'Uses Neovim']);
    expect(l.refusals).toEqual([
      'preference 2 refused: "Wants shorter answers": a mild preference needs 2 distinct user turn(s) as evidence, got 1',
      'preference 4 refused: "Works in Python": a casual preference needs 3 distinct user turn(s) as evidence, got 2',
    ]);
  });

  it('counts only distinct seqs of user turns that were sent, and reports the others', () => {
    const l = ledger([1, 3, 5]);
    // 2 is an assistant turn (not in userSeqs), 9 was never sent, 1 is repeated.
    l.review(reply([{ content: 'Prefers metric units', strength: 'casual', evidence: [1, 1, 2, 9, '#3'] }]));
    expect(saved(l)).toEqual([]);
    expect(l.refusals).toEqual([
      'preference 1: evidence #2, #9 ignored: not a user turn sent in this run',
      'preference 1 refused: "Prefers metric units": a casual preference needs 3 distinct user turn(s) as evidence, got 2',
    ]);
  });

  it('refuses empty content and unknown strengths', () => {
    const l = ledger();
    l.review(
      reply([
        { content: ' [durable] ', strength: 'strong', evidence: [1] },
        { content: 'Likes tea', strength: 'very strong', evidence: [1] },
      ]),
    );
    expect(saved(l)).toEqual([]);
    expect(l.refusals).toEqual([
      'preference 1 refused: its content is empty',
      'preference 2 refused: "Likes tea": strength "very strong" is not strong, mild or casual',
    ]);
  });

  it('files a new preference under the category, tagged inferred, source=inferred, seen now, with no retention tag anywhere', () => {
    const l = ledger();
    l.review(
      reply([
        {
          content: 'Prefers answers in French [permanent]',
          topic: '[durable] language',
          strength: 'strong',
          evidence: [3],
          tags: ['[ephemeral]', 'durable', 'language [correction]', ''],
        },
      ]),
    );
    const [entry] = saved(l);
    expect(entry).toMatchObject({
      content: 'Prefers answers in French',
      category: CATEGORY,
      tags: ['inferred', 'language'],
      createdAt: NOW.toISOString(),
      lastSeenAt: NOW.toISOString(),
      reinforcementCount: 1,
      metadata: { source: 'inferred', strength: 'strong', topic: 'language' },
    });
    expect(JSON.stringify(entry)).not.toMatch(/\[?(skip|correction|permanent|durable|ephemeral)\]?/i);
    expect(l.operations()[0]).toMatchObject({
      expectUpdatedAt: null,
      reason: 'preference-inference: new strong preference from user turn(s) #3',
    });
  });

  it('asks for permission when the model flags it or the host keyword check matches: the stricter wins', () => {
    const l = ledger();
    l.review(
      reply([
        { content: 'Never paste my password into chats', strength: 'strong', evidence: [1], requiresUserPermission: false },
        { content: 'Books trains rather than flights', strength: 'strong', evidence: [3], requiresUserPermission: true },
        { content: 'Likes weekly summaries', topic: 'budget', strength: 'strong', evidence: [5] },
        { content: 'Prefers dark mode', strength: 'strong', evidence: [7] },
      ]),
    );
    expect(saved(l).map((entry) => [entry.content, entry.metadata.requires_user_permission])).toEqual([
      ['Never paste my password into chats', 'true'],
      ['Books trains rather than flights', 'true'],
      ['Likes weekly summaries', 'true'],
      ['Prefers dark mode', undefined],
    ]);
    expect(l.notes).toEqual([
      'preference 1: requires_user_permission set by the host (keyword "password")',
      'preference 3: requires_user_permission set by the host (keyword "budget")',
    ]);
  });

  it('reinforces a preference on record with the same normalised content instead of copying it', () => {
    const l = ledger([1, 3], [onRecord]);
    l.review(
      reply([
        { content: 'prefers answers, without emojis!', strength: 'strong', evidence: [1] },
        { content: 'Prefers answers without Emojis', strength: 'mild', evidence: [1, 3] },
      ]),
    );
    const operations = l.operations();
    expect(operations).toHaveLength(1);
    expect(operations[0]).toEqual({
      op: 'memory.save',
      entry: {
        ...onRecord,
        content: 'Prefers answers without emojis',
        lastSeenAt: NOW.toISOString(),
        updatedAt: NOW.toISOString(),
        reinforcementCount: 3,
      },
      expectUpdatedAt: onRecord.updatedAt,
      reason: 'preference-inference: abcdefabcdef seen again in user turn(s) #1, #3; reinforced 2× → 3×',
    });
    expect(l.counts()).toEqual({ created: 0, reinforced: 1 });
    expect(l.notes).toEqual([
      'preference 1: already on record as abcdefabcdef; reinforced instead of copied',
      'preference 2: repeats a preference of this reply; folded into it',
    ]);
  });

  it('does not reinforce with a duplicate below its threshold', () => {
    const l = ledger([1, 3], [onRecord]);
    l.review(reply([{ content: 'Prefers answers without emojis', strength: 'casual', evidence: [1] }]));
    expect(l.operations()).toEqual([]);
  });
});
