import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '@reverie/core';
import type { DreamOperation } from '@reverie/dream-state';
import { withoutForgottenFacts } from './without-forgotten-facts';

const at = '2026-06-01T00:00:00.000Z';
const entry = (id: string, content: string, extra: Partial<MemoryEntry> = {}): MemoryEntry => ({
  id,
  content,
  category: 'general',
  tags: [],
  createdAt: at,
  updatedAt: at,
  lastSeenAt: at,
  reinforcementCount: 1,
  importance: 0.5,
  metadata: {},
  ...extra,
});
const plan = (operations: DreamOperation[]) => ({ operations, itemsProcessed: 1, notes: [], refusals: [] });
const statesAna = (content: string) => content.includes('Ana');

describe('withoutForgottenFacts', () => {
  it('refuses a new entry stating a forgotten fact and keeps the sources it would have merged', () => {
    const merged = entry('aaaaaaaaaaaa', 'The sister is Ana', {
      lineage: {
        origin: { kind: 'merge', at },
        ancestors: [{ id: 'bbbbbbbbbbbb', relation: 'merged', into: 'aaaaaaaaaaaa', at, excerpt: 'The sister…', fingerprint: '0123abcd' }],
      },
    });
    const result = withoutForgottenFacts(
      plan([
        { op: 'memory.save', entry: merged, expectUpdatedAt: null, reason: 'merge' },
        { op: 'memory.delete', id: 'bbbbbbbbbbbb', expectUpdatedAt: at, reason: 'merged' },
        { op: 'memory.delete', id: 'cccccccccccc', expectUpdatedAt: at, reason: 'stale' },
        { op: 'memory.save', entry: entry('dddddddddddd', 'The user plays chess'), expectUpdatedAt: null, reason: 'new' },
      ]),
      statesAna,
    );
    expect(
      result.operations.map((operation) =>
        operation.op === 'memory.delete' ? operation.id : operation.op === 'memory.save' ? operation.entry.id : '',
      ),
    ).toEqual(['cccccccccccc', 'dddddddddddd']);
    expect(result.refusals).toEqual(['new memory aaaaaaaaaaaa refused: it states a fact the user had Reverie forget']);
  });

  it('keeps an entry it would have marked superseded by a refused one, and never checks changes, _system/ or a clean plan', () => {
    const operations: DreamOperation[] = [
      { op: 'memory.save', entry: entry('aaaaaaaaaaaa', 'Ana lives in Porto'), expectUpdatedAt: null, reason: 'new' },
      {
        op: 'memory.save',
        entry: entry('bbbbbbbbbbbb', 'Ana lived in Lisbon', { validTo: at, supersededBy: 'aaaaaaaaaaaa' }),
        expectUpdatedAt: at,
        reason: 'superseded',
      },
    ];
    expect(withoutForgottenFacts(plan(operations), statesAna).operations).toEqual([]);
    const kept: DreamOperation[] = [
      { op: 'memory.save', entry: entry('aaaaaaaaaaaa', 'Ana, changed'), expectUpdatedAt: at, reason: 'rewrite' },
      { op: 'memory.save', entry: entry('bbbbbbbbbbbb', 'Ana', { category: '_system/notes' }), expectUpdatedAt: null, reason: 'own' },
    ];
    const clean = plan(kept);
    expect(withoutForgottenFacts(clean, statesAna)).toBe(clean);
  });
});
