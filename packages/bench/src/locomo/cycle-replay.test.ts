import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusedProposals, replayRecordedCycle } from './cycle-replay';
import { loadLocomo, locomoCyclePath, locomoPath } from './locomo-data';

describe('refusedProposals', () => {
  it('names each refused proposal once by what it is about, whichever reply gave the reason', () => {
    const refusals = [
      'call 1: 2 merge(s) did not keep the facts of their sources; asked the model once to repair the reply',
      'call 1: toSave item 2 refused: it does not keep the facts of its sources or adds to them: adds name "Wolves"; its sources stay (d7163bc42731)',
      'call 1: toSave item 21 refused: the host does not find 79e64ee43d9f similar to the other sources; its sources stay (8cc057dc2532, 79e64ee43d9f)',
      'call 1: toSave item 20 refused: the host does not find 79e64ee43d9f similar to the other sources; its sources stay (79e64ee43d9f, 8cc057dc2532)',
      'call 2: toSupersede item 1 (aaaaaaaaaaaa → bbbbbbbbbbbb) refused: they are not about the same thing',
      'call 2: delete cccccccccccc refused: it is protected',
      'call 2: toDelete: dddddddddddd kept, because the entry that was to replace it was refused',
    ];
    expect([...refusedProposals(refusals)]).toEqual(['toSave:d7163bc42731', 'toSave:79e64ee43d9f,8cc057dc2532', 'toSupersede:aaaaaaaaaaaa,bbbbbbbbbbbb', 'toDelete:cccccccccccc']);
  });
});

const cycle = locomoCyclePath();
const present = existsSync(locomoPath()) && existsSync(join(cycle, 'initial')) && existsSync(join(cycle, 'exchanges'));

describe('a real model’s recorded dream cycle, replayed through today’s directive and guards (SPEC B11)', () => {
  it.skipIf(!present)(
    present ? `accepts every proposal accepted when ${cycle} was recorded, and the cycle completes` : `skipped: no LoCoMo data at ${locomoPath()} and ${cycle} (../shared/data beside the repository, or LOCOMO_PATH and LOCOMO_CYCLE_PATH)`,
    async () => {
      const replay = await replayRecordedCycle(cycle, { conversations: loadLocomo(locomoPath()) });
      expect(replay.unmatched).toEqual([]);
      expect(replay.calls).toBeGreaterThan(0);
      expect(replay.proposed).toBeGreaterThan(0.9 * replay.recordedProposals);
      // What the guards refuse today, they refused when the cycle was recorded: nothing accepted then is refused now.
      expect([...replay.refused].filter((proposal) => !replay.recordedRefused.has(proposal))).toEqual([]);
    },
    180_000,
  );
});
