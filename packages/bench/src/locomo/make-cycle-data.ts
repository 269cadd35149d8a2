// Writes LoCoMo conversation <n> as a dream cycle's starting data directory (see `writeCycleData`),
// for recording a cycle through ../shared/tools/llm-bridge.mjs (docs/benchmarks.md, "Recording a cycle").
// Usage: pnpm --filter @reverie/bench locomo:cycle-data <conversation> <dir>
import { ManualClock } from '@reverie/core';
import { RECORDING_CLOCK } from './cycle-replay';
import { writeCycleData } from './cycle-data';
import { loadLocomo, locomoPath } from './locomo-data';

const [index, dataPath] = [Number(process.argv[2]), process.argv[3]];
const conversation = loadLocomo(locomoPath())[index];
if (!conversation || !dataPath) {
  console.error('Usage: locomo:cycle-data <conversation 0–4> <data directory>');
  process.exit(2);
}
const written = await writeCycleData(conversation, dataPath, new ManualClock(RECORDING_CLOCK));
console.log(`conversation ${index} (${conversation.sampleId}): ${written.entries} entries, ${written.turns} turns → ${dataPath}`);
