import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '@reverie/core';
import { memoryJson, renderCategories, renderMemoryList, renderMemorySearch } from './render-memory';

const asStored = (entry: MemoryEntry) => entry.importance;

const entry = (id: string, category: string, content: string, tags: string[] = []): MemoryEntry => ({
  id,
  content,
  category,
  tags,
  importance: 0.5,
  createdAt: '2026-06-01T00:00:00.000Z',
  updatedAt: '2026-06-01T00:00:00.000Z',
  lastSeenAt: '2026-06-01T00:00:00.000Z',
  reinforcementCount: 1,
  metadata: {},
});

describe('memory renderers', () => {
  it('lists entries on one line each with aligned categories and a count', () => {
    expect(
      renderMemoryList(
        [entry('aaaaaaaaaaaa', 'prefs', 'Answers in\nmetric units', ['units']), entry('bbbbbbbbbbbb', 'people/team', 'Ana leads QA')],
        asStored,
      ),
    ).toBe(
      [
        'aaaaaaaaaaaa  prefs        0.50  Answers in metric units #units',
        'bbbbbbbbbbbb  people/team  0.50  Ana leads QA',
        '2 entries',
      ].join('\n'),
    );
    expect(renderMemoryList([], asStored)).toBe('No memories.');
  });

  it('shows search scores and cuts long content', () => {
    const text = renderMemorySearch([{ entry: entry('aaaaaaaaaaaa', 'prefs', 'x'.repeat(150)), score: 1.23456 }], asStored);
    expect(text).toBe(`aaaaaaaaaaaa  1.235  prefs  0.50  ${'x'.repeat(99)}…\n1 result`);
    expect(renderMemorySearch([], asStored)).toBe('No memories match.');
  });

  it('shows importance now, with the stored value in brackets when decay has lowered it (SPEC D7)', () => {
    const faded = entry('aaaaaaaaaaaa', 'prefs', 'Uses Jenkins');
    const halved = (e: MemoryEntry) => e.importance / 2;
    expect(renderMemoryList([faded], halved)).toBe('aaaaaaaaaaaa  prefs  0.25 (0.50)  Uses Jenkins\n1 entry');
    expect(memoryJson(faded, halved)).toEqual({ ...faded, tier: 'hot', effectiveImportance: 0.25 });
  });

  it('lists categories with their counts', () => {
    expect(
      renderCategories([
        { category: 'general', count: 12 },
        { category: 'prefs', count: 3 },
      ]),
    ).toBe('12  general\n 3  prefs');
  });
});
