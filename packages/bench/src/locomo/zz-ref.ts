import { replayRecordedCycle } from './cycle-replay';
import { loadLocomo, locomoPath, recordedCyclePaths } from './locomo-data';
const conversations = loadLocomo(locomoPath());
for (const folder of recordedCyclePaths()) {
  if (!folder.includes(process.argv[2] ?? 'locomo-4')) continue;
  const r = await replayRecordedCycle(folder, { conversations });
  console.log(folder, r.refusals.join('\n'));
}
