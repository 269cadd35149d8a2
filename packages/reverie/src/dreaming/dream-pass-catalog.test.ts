import { BUILT_IN_PASSES } from '@reverie/dream/options';
import type { DreamPass } from '@reverie/dream';
import { describe, expect, it } from 'vitest';
import { createDreamPasses } from './create-dream-passes';
import { dreamingOptionsSchema } from './dream-options';
import { dreamPassCatalog, dreamPassNames } from './dream-pass-catalog';

const SWITCHES = [
  'skillGap',
  'skillConsolidation',
  'skillOptimization',
  'workflowFailureAnalysis',
  'preferenceInference',
  'tiers',
] as const;

const hostPass = (name: string, phase: DreamPass['phase']): DreamPass => ({
  name,
  phase,
  requires: [],
  model: 'none',
  plan: async () => ({ skipped: 'nothing to do' }),
});
const HOST = [hostPass('late-cleanup', 'deep-sleep'), hostPass('early-tally', 'light-sleep'), hostPass('rem-notes', 'rem')];

describe('dreamPassNames', () => {
  it('names the passes createDreamPasses builds, in cycle order, for every combination of switches, with and without host passes', () => {
    for (let mask = 0; mask < 2 ** SWITCHES.length; mask++) {
      const options = dreamingOptionsSchema.parse(
        Object.fromEntries(SWITCHES.map((name, bit) => [name, { enabled: (mask & (1 << bit)) !== 0 }])),
      );
      expect(dreamPassNames(options)).toEqual(createDreamPasses(options, []).map((pass) => pass.name));
      expect(dreamPassNames(options, HOST)).toEqual(createDreamPasses(options, [], HOST).map((pass) => pass.name));
    }
  });
});

describe('dreamPassCatalog', () => {
  it('is the built-in declarations in SPEC order, and puts each host pass after the built-in passes of its phase', () => {
    const catalogue = dreamPassCatalog(HOST);
    expect(dreamPassCatalog().map((pass) => pass.name)).toEqual(BUILT_IN_PASSES.map((pass) => pass.name));
    expect(catalogue.map((pass) => pass.name)).toEqual([
      'importance-decay',
      'recall-signals',
      'early-tally',
      'memory-consolidation',
      'episode-extraction',
      'skill-gap',
      'skill-consolidation',
      'skill-optimization',
      'workflow-failure-analysis',
      'preference-inference',
      'rem-notes',
      'promotion',
      'tier-migration',
      'archive-retention',
      'late-cleanup',
    ]);
    expect(catalogue.filter((pass) => pass.host).map((pass) => pass.name)).toEqual(['early-tally', 'rem-notes', 'late-cleanup']);
    expect(catalogue.find((pass) => pass.name === 'skill-gap')).toMatchObject({
      switch: 'skillGap',
      requires: ['skills', 'conversationLog'],
    });
  });
});
