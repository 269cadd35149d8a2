import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PassOutcome } from '@reverie/dream';
import { passProgressPrinter } from './pass-progress-printer';

const ok: PassOutcome = {
  name: 'memory-consolidation',
  phase: 'rem',
  status: 'ok',
  itemsProcessed: 40,
  applied: 5,
  conflicts: 1,
  notes: [],
  refusals: [],
  tokens: { input: 1200, output: 300 },
  durationMs: 2500,
};
const skipped: PassOutcome = { name: 'episode-extraction', phase: 'rem', status: 'skipped', reason: 'needs a language model' };

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, isTTY, write: (text: string) => written.push(text) };
}

describe('passProgressPrinter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('prints a start line and an outcome line per pass when not on a terminal', () => {
    const out = stream(false);
    const printer = passProgressPrinter(out);
    printer.onPass({ type: 'start', name: 'memory-consolidation', phase: 'rem', index: 0, total: 2 });
    printer.onPass({ type: 'finish', outcome: ok, index: 0, total: 2 });
    printer.onPass({ type: 'finish', outcome: skipped, index: 1, total: 2 });
    expect(out.written).toEqual([
      '[1/2] memory-consolidation (rem) started\n',
      '[1/2] memory-consolidation: ok — 40 items, 5 applied, 1 conflict, 1200/300 tokens (2.5 s)\n',
      '[2/2] episode-extraction: skipped — needs a language model\n',
    ]);
  });

  it('keeps one live line per pass on a terminal, counting the seconds, replaced by the outcome', () => {
    const out = stream(true);
    let now = 0;
    const printer = passProgressPrinter(out, () => now);
    printer.onPass({ type: 'start', name: 'memory-consolidation', phase: 'rem', index: 0, total: 1 });
    for (const second of [1, 2]) {
      now = second * 1000;
      vi.advanceTimersByTime(1000);
    }
    printer.onPass({ type: 'finish', outcome: ok, index: 0, total: 1 });
    now = 5000;
    vi.advanceTimersByTime(3000);
    printer.stop();
    expect(out.written).toEqual([
      '\r\x1b[2K[1/1] memory-consolidation (rem) running… 0 ms',
      '\r\x1b[2K[1/1] memory-consolidation (rem) running… 1.0 s',
      '\r\x1b[2K[1/1] memory-consolidation (rem) running… 2.0 s',
      '\r\x1b[2K[1/1] memory-consolidation: ok — 40 items, 5 applied, 1 conflict, 1200/300 tokens (2.5 s)\n',
    ]);
  });
});
