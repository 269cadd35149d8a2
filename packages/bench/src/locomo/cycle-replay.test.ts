import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusedProposals, replayRecordedCycle } from './cycle-replay';
import { loadLocomo, locomoPath, recordedCyclePaths } from './locomo-data';

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
    expect([...refusedProposals(refusals)]).toEqual([
      'toSave:d7163bc42731',
      'toSave:79e64ee43d9f,8cc057dc2532',
      'toSupersede:aaaaaaaaaaaa,bbbbbbbbbbbb',
      'toDelete:cccccccccccc',
    ]);
  });
});

const locomo = existsSync(locomoPath());
const cycles = locomo ? recordedCyclePaths() : [];

/** A kept cycle's `cycle.json`: the proposals refused when recorded that were not faithful to their sources. */
function unfaithful(folder: string): Set<string> | undefined {
  const file = join(folder, 'cycle.json');
  if (!existsSync(file)) return undefined;
  return new Set(Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { unfaithful?: Record<string, string> }).unfaithful ?? {}));
}

describe('a real model’s recorded dream cycles, replayed through today’s directive and guards (SPEC B11)', () => {
  it.skipIf(locomo)(`skipped: no LoCoMo data at ${locomoPath()} (../shared/data beside the repository, or LOCOMO_PATH)`, () => undefined);

  it.each(cycles)(
    '%s: accepts what was accepted when recorded, refuses nothing faithful, and the cycle completes',
    async (folder) => {
      const replay = await replayRecordedCycle(folder, { conversations: loadLocomo(locomoPath()) });
      expect(replay.unmatched).toEqual([]);
      expect(replay.calls).toBeGreaterThan(0);
      expect(replay.proposed).toBeGreaterThan(0.9 * replay.recordedProposals);
      // What the guards refuse today, they refused when the cycle was recorded: nothing accepted then is refused now.
      expect([...replay.refused].filter((proposal) => !replay.recordedRefused.has(proposal))).toEqual([]);
      // A cycle kept here lists what the model did unfaithfully; nothing else may be refused.
      const wrong = unfaithful(folder);
      if (wrong) expect([...replay.refused].filter((proposal) => !wrong.has(proposal))).toEqual([]);
    },
    300_000,
  );
});
