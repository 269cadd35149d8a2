import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '@reverie/core';
import { FACT_CHECK_SLICE_MS, type FactCheckJob, FactCheckStage } from './fact-check-stage';

const entry = (id: string, content: string) =>
  ({ id, content, createdAt: '2026-03-01T09:00:00.000Z', lastSeenAt: '2026-03-01T09:00:00.000Z' }) as MemoryEntry;
const jobs = (count: number): FactCheckJob[] =>
  Array.from({ length: count }, (_, index) => ({
    sources: [entry(`a${index}`, `user drinks green tea on Mondays (${index})`)],
    content: `The user drinks green tea every Monday (${index})`,
    strict: false,
  }));

/** A clock that moves 4 ms each time it is read: judging "takes" 4 ms a job. Nothing here is timed for real. */
function steppingClock(step = 4): () => number {
  let now = 0;
  return () => (now += step);
}

describe('FactCheckStage (SPEC B11: no reply holds up the event loop; an abort lands between slices)', () => {
  it('lets the event loop run once per slice of judging', async () => {
    let yields = 0;
    const stage = new FactCheckStage(async () => {
      yields += 1;
    }, steppingClock());
    await stage.judgeAll(jobs(30), new AbortController().signal);
    // Each job reads the clock once after judging (4 ms) and the slice restarts after a yield: a yield every ⌈10/4⌉ jobs at most.
    expect(FACT_CHECK_SLICE_MS).toBe(10);
    expect(yields).toBeGreaterThanOrEqual(Math.floor(30 / 3));
    expect(stage.verdictOf(jobs(30)[7]!).ok).toBe(true);
  });

  it('stops at the next slice once aborted, judging nothing more', async () => {
    const controller = new AbortController();
    let judged = 0;
    const stage = new FactCheckStage(async () => {
      judged += 1;
      if (judged === 2) controller.abort(new Error('user turn'));
    }, steppingClock(20));
    await expect(stage.judgeAll(jobs(50), controller.signal)).rejects.toThrow('user turn');
    expect(judged).toBe(2);
  });

  it('judges a job it did not see when asked for it', () => {
    const stage = new FactCheckStage();
    expect(
      stage.verdictOf({
        sources: [entry('a', 'The user met Alice in Berlin in 2019')],
        content: 'The user met Bob in Berlin in 2019',
        strict: false,
      }).ok,
    ).toBe(false);
  });
});
