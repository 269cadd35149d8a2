import { describe, expect, it } from 'vitest';
import { createDreamPasses } from './create-dream-passes';
import { dreamingOptionsSchema } from './dream-options';
import { dreamPassNames } from './dream-pass-catalog';

const SWITCHES = [
  'skillGap',
  'skillConsolidation',
  'skillOptimization',
  'workflowFailureAnalysis',
  'preferenceInference',
  'tiers',
] as const;

describe('dreamPassNames', () => {
  it('names the passes createDreamPasses builds, in cycle order, for every combination of switches', () => {
    for (let mask = 0; mask < 2 ** SWITCHES.length; mask++) {
      const options = dreamingOptionsSchema.parse(
        Object.fromEntries(SWITCHES.map((name, bit) => [name, { enabled: (mask & (1 << bit)) !== 0 }])),
      );
      expect(dreamPassNames(options)).toEqual(createDreamPasses(options, []).map((pass) => pass.name));
    }
  });
});
