import { createReverie, type DreamPass } from 'reverie';
import { afterEach, describe, expect, it } from 'vitest';
import { inspector } from '../src/index';
import { type Served, serveFresh } from './served-reverie';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A host's pass (SPEC E4) that counts the memory entries and changes nothing. */
const census: DreamPass = {
  name: 'memory-census',
  phase: 'light-sleep',
  requires: ['memory'],
  model: 'none',
  async plan({ services }) {
    const entries = await services.memory!.list();
    return { operations: [], itemsProcessed: entries.length, notes: [`${entries.length} entries`], refusals: [] };
  },
};

describe('a host pass on the server', () => {
  it('runs through the API and shows in the status, the ledger and the plan the inspector reads', async () => {
    served = await serveFresh({ extensions: [inspector()] }, (dataPath) =>
      createReverie({ dataPath, logger: 'silent' })
        .withMemory()
        .withDreaming({ passes: [census] })
        .build(),
    );
    await served.reverie.memory!.save({ content: 'The user likes green tea' });

    const plan = (await (await served.call('/api/dream/plan', { method: 'POST', json: {} })).json()) as {
      passes: Array<{ name: string }>;
    };
    expect(plan.passes.map((pass) => pass.name)).toContain('memory-census');
    const report = (await (await served.call('/api/dream/run', { method: 'POST', json: { reason: 'test' } })).json()) as {
      passes: Array<{ name: string; status: string; itemsProcessed: number }>;
    };
    expect(report.passes.find((pass) => pass.name === 'memory-census')).toMatchObject({ status: 'ok', itemsProcessed: 1 });

    const ledger = (await (await served.call('/api/dream/ledger')).json()) as Array<{ pass: string; phase: string }>;
    expect(ledger.find((line) => line.pass === 'memory-census')).toMatchObject({ phase: 'light-sleep' });
    const status = (await (await served.call('/api/dream/status')).json()) as { passes: Array<{ pass: string; phase: string }> };
    expect(status.passes.find((pass) => pass.pass === 'memory-census')).toMatchObject({ phase: 'light-sleep' });
  });
});
