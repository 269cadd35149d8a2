// One process of the chaos benchmark (chaos-bench.ts): a Reverie over a shared data directory
// whose wall clock jumps by up to ±2 hours and whose disk fails some writes with ENOSPC or EIO.
//
//   chaos-child.ts agent <dataPath> <seed>    saves memories, working-memory entries and turns;
//                                             prints {"ack":…} only after a write returned.
//   chaos-child.ts dreamer <dataPath> <seed>  runs dream cycles back to back (recovering first).
//
// Every failure is printed as {"fail": code}; a failure that is not a ReverieError is {"raw": …}.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { type IClock, isReverieError } from '@reverie/core';
import { injectFileSystemFaults } from '@reverie/core/testing';
import { createReverie } from 'reverie';

const [mode, dataPath, seedText] = process.argv.slice(2);
if (!mode || !dataPath) {
  console.error('usage: chaos-child <agent|dreamer> <dataPath> <seed>');
  process.exit(2);
}
const out = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

// A small seeded generator, so a run can be replayed.
let state = Number(seedText ?? 1) >>> 0 || 1;
const random = () => {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state / 2 ** 32;
};

/** Wall time that jumps by up to ±2 h every half second; monotonic time that does not. */
let offsetMs = 0;
const clock: IClock = { now: () => new Date(Date.now() + offsetMs), monotonicMs: () => performance.now() };
setInterval(() => {
  offsetMs = Math.round((random() * 2 - 1) * 2 * 60 * 60_000);
  out({ jump: offsetMs });
}, 500).unref();

// The disk fails 3 % of writes with ENOSPC or EIO, in bursts that come and go.
const faults = injectFileSystemFaults();
setInterval(() => {
  faults.set(random() < 0.5 ? { errno: random() < 0.5 ? 'ENOSPC' : 'EIO', under: dataPath, probability: 0.03, random } : undefined);
}, 700).unref();

const WORDS =
  'amber basil cedar delta ember fjord garnet harbor indigo juniper kelp lagoon marble nectar onyx pepper quartz raven saffron tundra umber velvet willow xenon yarrow zephyr'.split(
    ' ',
  );
const phrase = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');

async function attempt<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    if (isReverieError(error)) out({ fail: error.code });
    else out({ raw: String(error) });
    return undefined;
  }
}

const reverie = createReverie({ dataPath, clock })
  .withMemory()
  .withWorkingMemory({ defaultTtl: '7d' })
  .withConversationLog()
  .withDreaming({ enabled: true })
  .build();
out({ started: mode });

if (mode === 'agent') {
  const tag = `${process.pid}-${Math.floor(random() * 1e9).toString(36)}`;
  for (let i = 0; ; i++) {
    const content = `Chaos note ${tag}-${i}: ${phrase(8)}.`;
    const saved = await attempt(() => reverie.memory!.save({ content, category: 'chaos/notes' }));
    if (saved) out({ ack: 'memory', id: saved.id, content });

    const key = `session/chaos-${tag}-${Math.floor(i / 40)}/k${i}`;
    const value = phrase(5);
    const entry = await attempt(() => reverie.workingMemory!.set(key, value));
    if (entry) out({ ack: 'working-memory', key, value });

    const sessionId = `chaos-${tag}`;
    const message = `Turn ${tag}-${i}: ${phrase(6)}?`;
    const turn = await attempt(async () => {
      await reverie.context.forTurn({ sessionId, message });
      await reverie.context.recordReply(sessionId, `Reply ${tag}-${i}.`);
      // A turn does not wait for the conversation log; acknowledged only once it is on disk.
      await reverie.conversation.flush();
      return true;
    });
    if (turn) out({ ack: 'turn', sessionId, message });
    await sleep(2);
  }
} else {
  await attempt(() => reverie.dreams.recover());
  for (;;) {
    const report = await attempt(() => reverie.dreams.run({ trigger: 'chaos' }));
    if (report) out({ cycle: report.runId });
    await sleep(50);
  }
}
