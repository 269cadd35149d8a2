import { describe, expect, it } from 'vitest';
import type { CycleReport } from '@reverie/dream';
import { renderRunReport } from './render-run-report';

const base: CycleReport = {
  runId: 'a1b2c3d4e5f6',
  trigger: 'manual',
  dryRun: false,
  startedAt: '2026-06-01T10:00:00.000Z',
  completedAt: '2026-06-01T10:00:01.500Z',
  runFolder: '/data/_system/dreams/runs/2026-06-01-a1b2c3d4e5f6',
  passes: [
    {
      name: 'memory-consolidation',
      phase: 'rem',
      status: 'ok',
      itemsProcessed: 3,
      applied: 3,
      conflicts: 0,
      notes: ['1 duplicate group merged'],
      refusals: ['merge of x refused: protected category'],
      tokens: { input: 0, output: 0 },
      durationMs: 40,
    },
    { name: 'episode-extraction', phase: 'rem', status: 'skipped', reason: 'needs a language model' },
  ],
};

describe('renderRunReport', () => {
  it('shows each pass with its notes and refusals, the model hint and how to undo', () => {
    const text = renderRunReport(base, {
      model: undefined,
      needsModel: ['episode-extraction'],
      withoutModel: [{ name: 'memory-consolidation', reason: 'without a model: the deterministic merge only' }],
      recovered: ['ffffffffffff'],
    });
    expect(text.split('\n')).toEqual([
      'Dream run a1b2c3d4e5f6 — manual, 1.5 s, model: none',
      'Recovered interrupted run ffffffffffff first.',
      '  memory-consolidation  ok — 3 items, 3 applied, 1 refused (40 ms)',
      '      note: 1 duplicate group merged',
      '      refused: merge of x refused: protected category',
      '  episode-extraction    skipped — needs a language model',
      'memory-consolidation ran without a model: the deterministic merge only.',
      expect.stringMatching(
        /^episode-extraction needs a model and was skipped\. Set REVERIE_MODEL to run it, e\.g\. REVERIE_MODEL=openai:gpt-4\.1-mini/,
      ),
      'Run folder: /data/_system/dreams/runs/2026-06-01-a1b2c3d4e5f6',
      'Undo with: reverie dream undo a1b2c3d4e5f6',
    ]);
  });

  it('lists what a dry run would do, capped, and says nothing about undo', () => {
    const entry = {
      id: 'aaaaaaaaaaaa',
      content: 'x',
      category: 'prefs',
      tags: [],
      createdAt: '',
      updatedAt: '',
      lastSeenAt: '',
      reinforcementCount: 1,
      importance: 0.5,
      metadata: {},
    };
    const planned = Array.from({ length: 22 }, (_, i) => ({
      op: 'memory.delete' as const,
      id: `${i}`.padStart(12, '0'),
      expectUpdatedAt: '',
      reason: 'merged',
    }));
    const text = renderRunReport(
      {
        ...base,
        dryRun: true,
        runFolder: undefined,
        passes: [
          {
            ...base.passes[0]!,
            applied: 0,
            notes: [],
            refusals: [],
            planned: [{ op: 'memory.save', entry, expectUpdatedAt: null, reason: 'merge' }, ...planned],
          } as CycleReport['passes'][number],
        ],
      },
      { model: 'ollama:llama3.1', needsModel: [], withoutModel: [], recovered: [] },
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe('Dream run a1b2c3d4e5f6 (dry run: no store was changed) — manual, 1.5 s, model: ollama:llama3.1');
    expect(lines[1]).toBe('  memory-consolidation  ok — 3 items, 23 operations planned (40 ms)');
    expect(lines[2]).toBe('      would save memory aaaaaaaaaaaa (prefs): merge');
    expect(lines[3]).toBe('      would delete memory 000000000000: merged');
    expect(lines.at(-1)).toBe('      … and 3 more (--format json lists them all)');
    expect(text).not.toContain('Undo with');
  });
});
