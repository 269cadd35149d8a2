import { describe, expect, it } from 'vitest';
import { ledgerLineFor } from './ledger-line-for';

describe('ledgerLineFor', () => {
  const run = {
    runId: 'r1',
    trigger: 'schedule',
    startedAt: new Date('2026-06-01T00:00:00Z'),
    completedAt: new Date('2026-06-01T00:00:01Z'),
  };

  it('records a skipped pass with its reason as the note', () => {
    expect(ledgerLineFor({ name: 'skill-gap', phase: 'rem', status: 'skipped', reason: 'needs a language model' }, run)).toMatchObject({
      status: 'skipped',
      itemsProcessed: 0,
      applied: 0,
      tokens: { input: 0, output: 0 },
      notes: ['needs a language model'],
      trigger: 'schedule',
    });
  });

  it('records a failed pass with its error', () => {
    const failed = ledgerLineFor(
      {
        name: 'episode-extraction',
        phase: 'rem',
        status: 'failed',
        itemsProcessed: 0,
        applied: 0,
        conflicts: 0,
        notes: [],
        refusals: [],
        error: 'MODEL_REPLY_INVALID: not JSON',
        tokens: { input: 10, output: 5 },
        durationMs: 12.4,
      },
      run,
    );
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'MODEL_REPLY_INVALID: not JSON',
      durationMs: 12,
      tokens: { input: 10, output: 5 },
    });
  });
});
