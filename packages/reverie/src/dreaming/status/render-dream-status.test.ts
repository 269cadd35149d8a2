import { describe, expect, it } from 'vitest';
import { NOW, THREE_RUNS } from './__fixtures__/ledger-lines';
import { dreamStatusSchema, summariseLedger } from './dream-status';
import { renderDreamStatus } from './render-dream-status';

const status = {
  ...summariseLedger(THREE_RUNS, { now: NOW, invalidLines: 1 }),
  lock: {
    status: 'held' as const,
    holder: { pid: 4242, host: 'box', acquiredAt: '2026-06-03T11:59:00.000Z', runId: 'run-d' },
    stale: false,
  },
};

describe('renderDreamStatus', () => {
  it('renders text for a terminal', () => {
    expect(renderDreamStatus(status, 'text')).toBe(
      [
        'Dream status, last 24 h (since 2026-06-02T12:00:00.000Z)',
        'Last run: 2026-06-03T11:00:04.000Z; last successful run: 2026-06-03T11:00:04.000Z',
        'Lock: held by pid 4242 on box since 2026-06-03T11:59:00.000Z, run run-d',
        '',
        'light-sleep  2 run(s), ok 2, failed 0, skipped 0, items 100, applied 1, tokens 0 in / 0 out, last ok 2026-06-03T11:00:00.000Z',
        'rem          2 run(s), ok 1, failed 1, skipped 1, items 12, applied 3, tokens 1300 in / 180 out, last ok 2026-06-03T11:00:04.000Z',
        'deep-sleep   0 run(s), ok 0, failed 0, skipped 0, items 0, applied 0, tokens 0 in / 0 out, last ok never',
        '',
        'Last run of each pass:',
        '  importance-decay (light-sleep): ok at 2026-06-03T11:00:00.000Z, trigger schedule; items 50, applied 0, 1000 ms',
        '  memory-consolidation (rem): ok at 2026-06-03T11:00:04.000Z, trigger schedule; items 12, applied 3, 1000 ms',
        '  episode-extraction (rem): failed at 2026-06-03T08:00:09.000Z, trigger schedule; items 0, applied 0, 1000 ms; error: MODEL_REPLY_INVALID: not JSON',
        '  skill-gap (rem): skipped at 2026-06-03T11:00:00.000Z, trigger schedule; needs a language model',
        '',
        '1 invalid ledger line(s) skipped.',
        '',
      ].join('\n'),
    );
  });

  it('renders JSON that parses back to the same status', () => {
    const json = renderDreamStatus(status, 'json');
    expect(dreamStatusSchema.parse(JSON.parse(json))).toEqual(status);
  });

  it('renders markdown tables per phase and per pass', () => {
    const markdown = renderDreamStatus(status, 'markdown');
    expect(markdown).toContain('## Dream status: last 24 h');
    expect(markdown).toContain('| rem | 2 | 1 | 0 | 1 | 1 | 12 | 3 | 0 | 0 | 1300 | 180 | 2026-06-03T11:00:04.000Z |');
    expect(markdown).toContain('| deep-sleep | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | — |');
    expect(markdown).toContain(
      '| episode-extraction | rem | failed | 2026-06-03T08:00:09.000Z | schedule | 0 | 0 | MODEL_REPLY_INVALID: not JSON |',
    );
    expect(markdown).toContain('- Invalid ledger lines skipped: 1');
  });

  it('says when nothing has run yet, and shows a stale lock', () => {
    const empty = {
      ...summariseLedger([], { now: NOW }),
      lock: {
        status: 'held' as const,
        holder: { pid: 1, host: 'box', acquiredAt: '2026-06-03T09:00:00.000Z' },
        stale: true,
        staleReason: 'its process is gone',
      },
    };
    const text = renderDreamStatus(empty);
    expect(text).toContain('No dream runs recorded yet.');
    expect(text).toContain('Last run: never; last successful run: never');
    expect(text).toContain('(stale: its process is gone)');
    expect(renderDreamStatus(empty, 'markdown')).toContain('No dream runs recorded yet.');
  });
});
