import { describe, expect, it } from 'vitest';
import type { MemoryEntry, Skill } from 'reverie';
import { describeChanges } from './describe-changes';

const at = '2026-01-01T00:00:00.000Z';
const entry = (id: string, content: string, extra: Partial<MemoryEntry> = {}): MemoryEntry => ({
  id,
  content,
  category: 'general',
  tags: [],
  metadata: {},
  importance: 0.5,
  reinforcementCount: 1,
  createdAt: at,
  updatedAt: at,
  lastSeenAt: at,
  ...extra,
});
const skill = (name: string, content: string, seeAlso: string[] = []): Skill => ({
  name,
  summary: 's',
  content,
  seeAlso,
  createdAt: at,
  updatedAt: at,
  lastUsedAt: null,
});

describe('describeChanges', () => {
  it('shows a merge as one line, and removals, additions and changes as such', () => {
    const lines = describeChanges(
      {
        memories: [
          entry('a', 'The user likes tea.'),
          entry('b', 'the user likes tea'),
          entry('c', 'Old fact'),
          entry('d', 'Decaying', { importance: 0.6 }),
        ],
        skills: [skill('x/one', 'abc'), skill('x/two', 'abc')],
      },
      {
        memories: [
          entry('m', 'The user likes tea.', { reinforcementCount: 2 }),
          entry('d', 'Decaying', { importance: 0.3 }),
          entry('n', 'New episode'),
        ],
        skills: [skill('x/one', 'abcdef', ['x/three']), skill('x/three', 'new')],
      },
    );
    expect(lines).toEqual([
      '= merged 2 entries into: (general) The user likes tea. (reinforced 2×)',
      '- removed memory: (general) Old fact',
      '~ memory (general) Decaying: importance 0.60 → 0.30',
      '+ new memory: (general) New episode',
      '- removed skill: x/two',
      '~ skill x/one: content 3 → 6 chars, see also: x/three',
      '+ new skill: x/three',
    ]);
  });

  it('says nothing when nothing changed', () => {
    const snapshot = { memories: [entry('a', 'x')], skills: [skill('a/b', 'c')] };
    expect(describeChanges(snapshot, snapshot)).toEqual([]);
  });
});
